# Arma RTM clip reader and writer tests (issue 12; formats/animation.md section 4). armaio's
# sample pair is read in place from ${VKSKIN_REAL_DATASETS}/anim/rtm; the tests that need it
# are skipped (77) without it. test_lzo1x checks the reader's own LZO1X decoder against liblzo2,
# the reference the tests alone link (the library has one decoder by hand and needs no LZO).
set(VKS_RTM_FIXTURE ${CMAKE_CURRENT_SOURCE_DIR}/unit/rtm_fixture.c)
find_path(VKS_TEST_LZO_INCLUDE_DIR lzo/lzo1x.h REQUIRED)
find_library(VKS_TEST_LZO_LIBRARY lzo2 REQUIRED)
vks_add_test(NAME test_lzo1x SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/test_lzo1x.c LABELS rtm)
target_include_directories(test_lzo1x PRIVATE ${VKS_TEST_LZO_INCLUDE_DIR})
target_link_libraries(test_lzo1x PRIVATE ${VKS_TEST_LZO_LIBRARY})
foreach(t test_rtm test_rtm_robust)
  if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/unit/${t}.c)
    vks_add_test(NAME ${t} SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/unit/${t}.c ${VKS_RTM_FIXTURE} LABELS rtm)
  endif()
endforeach()
# The replay runs over the project's own small written files and the real samples.
if(EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_rtm.c)
  vks_add_fuzz(NAME fuzz_rtm SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/fuzz_rtm.c
    SEEDS ${CMAKE_CURRENT_SOURCE_DIR}/fuzz/rtm ${VKSKIN_REAL_DATASETS}/anim/rtm)
  if(TEST fuzz_rtm_replay)
    set_tests_properties(fuzz_rtm_replay PROPERTIES LABELS rtm)
  endif()
endif()

# Installs libvkskin (static or shared), the public headers, the CMake package
# (find_package(vkskin CONFIG) -> vkskin::vkskin) and vkskin.pc. Included by the top-level
# CMakeLists.txt when VKSKIN_INSTALL is ON.
include(CMakePackageConfigHelpers)

set(VKSKIN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/vkskin)
get_target_property(VKSKIN_LIBRARY_TYPE vkskin_library TYPE)
if(VKSKIN_LIBRARY_TYPE STREQUAL "STATIC_LIBRARY")
  set(VKSKIN_STATIC ON)
else()
  set(VKSKIN_STATIC OFF)
endif()

install(TARGETS vkskin_library EXPORT vkskinTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
  INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
# Headers that name Vulkan types (they include a Vulkan or volk header, e.g. crowd.h) belong to
# the GPU engine: a -DVKSKIN_GPU=OFF library neither defines their functions nor installs them.
# gpu.h itself is Vulkan-free and always installed (its functions are stubs without the GPU).
file(GLOB VKSKIN_PUBLIC_HEADERS CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/include/vkskin/*.h)
set(VKSKIN_HEADER_EXCLUDES)
if(NOT VKSKIN_GPU)
  foreach(h ${VKSKIN_PUBLIC_HEADERS})
    file(STRINGS ${h} VKSKIN_VULKAN_INCLUDE REGEX "^#[ \t]*include[ \t]*[<\"](vulkan/|volk\\.h)")
    if(VKSKIN_VULKAN_INCLUDE)
      get_filename_component(name ${h} NAME)
      list(APPEND VKSKIN_HEADER_EXCLUDES PATTERN ${name} EXCLUDE)
    endif()
  endforeach()
endif()
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h" ${VKSKIN_HEADER_EXCLUDES})
install(EXPORT vkskinTargets NAMESPACE vkskin:: DESTINATION ${VKSKIN_CMAKE_DIR})

configure_package_config_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/vkskinConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/vkskinConfig.cmake
  INSTALL_DESTINATION ${VKSKIN_CMAKE_DIR} NO_SET_AND_CHECK_MACRO)
# Before 1.0 a new minor version may break the API (version.h), so 0.x matches its own minor.
if(PROJECT_VERSION_MAJOR EQUAL 0)
  set(VKSKIN_COMPATIBILITY SameMinorVersion)
else()
  set(VKSKIN_COMPATIBILITY SameMajorVersion)
endif()
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/vkskinConfigVersion.cmake
  COMPATIBILITY ${VKSKIN_COMPATIBILITY})
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/vkskinConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/vkskinConfigVersion.cmake
        DESTINATION ${VKSKIN_CMAKE_DIR})

# vkskin.pc finds its prefix from its own folder (${pcfiledir}), so `cmake --install --prefix`
# and a moved install tree both work. The static library's dependencies are private to it:
# pkg-config --static --libs vkskin adds them; the shared library needs none of them.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(VKSKIN_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(VKSKIN_PC_LIBDIR "${CMAKE_INSTALL_LIBDIR}")
else()
  string(REGEX REPLACE "[^/]+" ".." VKSKIN_PC_UP "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
  set(VKSKIN_PC_PREFIX "\${pcfiledir}/${VKSKIN_PC_UP}")
  set(VKSKIN_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
endif()
if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(VKSKIN_PC_INCLUDEDIR "${CMAKE_INSTALL_INCLUDEDIR}")
else()
  set(VKSKIN_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
if(VKSKIN_STATIC)
  set(VKSKIN_PC_REQUIRES_PRIVATE "Requires.private: expat libcjson libpng")
  # meshoptimizer has no .pc; libdraco is C++, so its shim needs libstdc++ too
  set(VKSKIN_PC_LIBS_PRIVATE "Libs.private: -lmeshoptimizer -ldraco -lstdc++ -lm -pthread")
  if(VKSKIN_HAVE_OPENEXR) # its C library alone (OpenEXR.pc would add the C++ ones)
    get_filename_component(VKSKIN_PC_EXR ${VKSKIN_OPENEXR_LIBRARY} NAME_WE)
    string(REGEX REPLACE "^lib" "" VKSKIN_PC_EXR ${VKSKIN_PC_EXR})
    string(APPEND VKSKIN_PC_LIBS_PRIVATE " -l${VKSKIN_PC_EXR}")
  endif()
  if(VKSKIN_GPU AND CMAKE_DL_LIBS)
    string(APPEND VKSKIN_PC_LIBS_PRIVATE " -l${CMAKE_DL_LIBS}")
  endif()
else()
  set(VKSKIN_PC_REQUIRES_PRIVATE "")
  set(VKSKIN_PC_LIBS_PRIVATE "")
endif()
configure_file(${CMAKE_CURRENT_SOURCE_DIR}/cmake/vkskin.pc.in ${CMAKE_CURRENT_BINARY_DIR}/vkskin.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/vkskin.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The engine kits (engines/: three.js modules and player page, Godot 3 shaders and player, Unity
# and Unreal HLSL) as share/vkskin/engines, so a bake plays without the sources or a build tree
# (README "Play a bake in your engine"). A component of their own: `cmake --install BUILD
# --component engines` copies only them (the three.js test serves the kit from there).
install(DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR}/engines/ DESTINATION ${CMAKE_INSTALL_DATADIR}/vkskin/engines
        COMPONENT engines)

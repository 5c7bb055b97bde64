# Writes the vkskin(1) man page at build time: `vkskin help --man`, which first checks that every
# command and option of the option tables has a description and fails (so the build fails)
# where one has none. Run as cmake -DVKSKIN=program -DOUT=file -P vkskin_man.cmake; the page
# is written to a temporary name and renamed, so a failed run leaves no half page behind.
execute_process(COMMAND ${VKSKIN} help --man OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "vkskin help --man failed (exit ${rc}):\n${err}")
endif()
file(RENAME ${OUT}.tmp ${OUT})

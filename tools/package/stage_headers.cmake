# Copies the installed headers into OUTPUT_DIR/redlab/, rewriting their includes of one another
# to the installed names ("client/lock.h" -> "redlab/client/lock.h", "server/node.h" ->
# "redlab/node.h"), and fails when one includes a header that is not installed: the public
# headers must not drag the server's internal ones along.
#   cmake -DSOURCE_DIR=<tree> -DOUTPUT_DIR=<dir> "-DHEADERS=src=dest;..." -P stage_headers.cmake
set(map_from)
set(map_to)
foreach(pair IN LISTS HEADERS)
  string(REPLACE "=" ";" parts "${pair}")
  list(GET parts 0 from)
  list(GET parts 1 to)
  list(APPEND map_from "${from}")
  list(APPEND map_to "${to}")
endforeach()

foreach(from to IN ZIP_LISTS map_from map_to)
  file(READ "${SOURCE_DIR}/${from}" text)
  string(REGEX MATCHALL "#include \"[^\"]+\"" includes "${text}")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "#include \"([^\"]+)\"" "\\1" included "${line}")
    list(FIND map_from "${included}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "${from} includes \"${included}\", which is not installed: forward-declare "
                          "what it needs, or install that header too")
    endif()
    list(GET map_to ${at} installed)
    string(REPLACE "#include \"${included}\"" "#include \"${installed}\"" text "${text}")
  endforeach()
  file(WRITE "${OUTPUT_DIR}/${to}.tmp" "${text}")
  file(COPY_FILE "${OUTPUT_DIR}/${to}.tmp" "${OUTPUT_DIR}/${to}" ONLY_IF_DIFFERENT)
  file(REMOVE "${OUTPUT_DIR}/${to}.tmp")
endforeach()

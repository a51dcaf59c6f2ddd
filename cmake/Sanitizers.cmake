# REDLAB_SANITIZE=address,undefined (or thread) instruments every target of the build.
set(REDLAB_SANITIZE "" CACHE STRING "Comma-separated -fsanitize= list (e.g. address,undefined)")
if(REDLAB_SANITIZE)
  add_compile_options(-fsanitize=${REDLAB_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${REDLAB_SANITIZE})
endif()

# Every first-party C and C++ target builds with warnings as errors.
function(kestrel_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Werror)
endfunction()

# Turns a text file (a Lua script) into a C++ header holding it as a string
# constant, so scripts live in their own reviewable files yet ship inside the binary.
function(petstore_embed_text output_var input_file symbol)
  get_filename_component(abs_input ${input_file} ABSOLUTE)
  get_filename_component(name ${input_file} NAME)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded/${name}.h)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DINPUT=${abs_input} -DOUTPUT=${out} -DSYMBOL=${symbol}
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedTextScript.cmake
    DEPENDS ${abs_input} ${PROJECT_SOURCE_DIR}/cmake/EmbedTextScript.cmake
    COMMENT "Embedding ${name}")
  set(${output_var} ${${output_var}} ${out} PARENT_SCOPE)
endfunction()

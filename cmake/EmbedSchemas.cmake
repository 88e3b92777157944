# petstore_embed_schemas(<output var>): a generated C++ file holding every
# event schema (schemas/events/*.json) and the headers' schema, for
# tools/petstore-audit and its fuzz target (tools/petstore-audit/embed_schemas.cmake
# writes it).
function(petstore_embed_schemas output_var)
  set(dir ${PROJECT_SOURCE_DIR}/schemas)
  set(script ${PROJECT_SOURCE_DIR}/tools/petstore-audit/embed_schemas.cmake)
  set(out ${CMAKE_CURRENT_BINARY_DIR}/embedded_schemas.cpp)
  file(GLOB files CONFIGURE_DEPENDS ${dir}/events/*.json)
  add_custom_command(
    OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -DSCHEMA_DIR=${dir}/events -DHEADERS_SCHEMA=${dir}/cloudevents-headers.json
            -DOUTPUT=${out} -P ${script}
    DEPENDS ${files} ${dir}/cloudevents-headers.json ${script}
    COMMENT "Embedding the event schemas")
  set(${output_var} ${out} PARENT_SCOPE)
endfunction()

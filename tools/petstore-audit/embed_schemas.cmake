# Writes OUTPUT: a C++ file defining petstore::audit::embedded_schemas() over
# every JSON file in SCHEMA_DIR (the published event schemas) and
# headers_schema_text() for HEADERS_SCHEMA, so the audit tool carries the
# contract it was built with.
file(GLOB files "${SCHEMA_DIR}/*.json")
list(SORT files)
set(delim "PETSTORE_SCHEMA")
set(body "")
foreach(f ${files})
  get_filename_component(name ${f} NAME_WE)
  get_filename_component(full ${f} NAME)
  string(REGEX REPLACE "\\.json$" "" name "${full}")
  file(READ ${f} content)
  string(APPEND body "      {\"${name}\", R\"${delim}(${content})${delim}\"},\n")
endforeach()
file(READ ${HEADERS_SCHEMA} headers)
file(WRITE ${OUTPUT}.tmp
  "// Generated from schemas/events/ by embed_schemas.cmake; edit those files instead.\n"
  "#include \"data_schema.h\"\n\nnamespace petstore::audit {\n\n"
  "std::string_view headers_schema_text() {\n  return R\"${delim}(${headers})${delim}\";\n}\n\n"
  "const std::vector<EmbeddedSchema>& embedded_schemas() {\n"
  "  static const std::vector<EmbeddedSchema> schemas{\n${body}  };\n  return schemas;\n}\n\n"
  "}  // namespace petstore::audit\n")
file(COPY_FILE ${OUTPUT}.tmp ${OUTPUT} ONLY_IF_DIFFERENT)

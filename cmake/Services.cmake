# PETSTORE_SERVICES: the names of services/services.txt, in its order.
file(STRINGS ${PROJECT_SOURCE_DIR}/services/services.txt lines REGEX "^[a-z]")
set(PETSTORE_SERVICES)
foreach(line ${lines})
  string(REGEX MATCH "^[a-z]+" name "${line}")
  list(APPEND PETSTORE_SERVICES ${name})
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/services/services.txt)

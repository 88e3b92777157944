# PETSTORE_SERVICES: the names of services/services.txt, in its order.
file(STRINGS ${PROJECT_SOURCE_DIR}/services/services.txt lines REGEX "^[a-z]")
set(PETSTORE_SERVICES)
foreach(line ${lines})
  string(REGEX MATCH "^[a-z]+" name "${line}")
  list(APPEND PETSTORE_SERVICES ${name})
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/services/services.txt)

# petstore_all_services: service::all_services() (service/descriptor.h),
# every service's descriptor in the order of services/services.txt, for the
# programs that serve or inspect them all (the contract test). Made from
# the list, so no source names the services.
function(petstore_add_service_index)
  set(declarations "")
  set(entries "")
  set(libraries "")
  foreach(name ${PETSTORE_SERVICES})
    string(APPEND declarations "namespace petstore::${name} {\nconst service::Descriptor& descriptor();\n}\n")
    string(APPEND entries "      &petstore::${name}::descriptor(),\n")
    list(APPEND libraries ${name}_service)
  endforeach()
  set(source ${CMAKE_BINARY_DIR}/generated/all_services.cpp)
  file(CONFIGURE OUTPUT ${source} CONTENT "// Made by cmake/Services.cmake from services/services.txt.
#include \"service/descriptor.h\"

${declarations}
namespace petstore::service {

const std::vector<const Descriptor*>& all_services() {
  static const std::vector<const Descriptor*> kAll{
${entries}  };
  return kAll;
}

}  // namespace petstore::service
")
  add_library(petstore_all_services STATIC ${source})
  target_link_libraries(petstore_all_services PUBLIC ${libraries})
  petstore_set_warnings(petstore_all_services)
endfunction()

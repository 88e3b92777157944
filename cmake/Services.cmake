# PETSTORE_SERVICES: the names of services/services.txt, in its order.
file(STRINGS ${PROJECT_SOURCE_DIR}/services/services.txt lines REGEX "^[a-z]")
set(PETSTORE_SERVICES)
foreach(line ${lines})
  string(REGEX MATCH "^[a-z]+" name "${line}")
  list(APPEND PETSTORE_SERVICES ${name})
endforeach()
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/services/services.txt)

# petstore_index_services(<source> <header> <type> <function> <index>):
# writes <source>, which defines `const std::vector<const <type>*>&
# <index>()` (declared in <header>): every service's `<name>::<function>()`
# in the order of services/services.txt. Made from the list, so no source
# names the services. <type> and <index> are named from namespace petstore.
function(petstore_index_services source header type function index)
  set(declarations "")
  set(entries "")
  foreach(name ${PETSTORE_SERVICES})
    string(APPEND declarations "namespace petstore::${name} {\nconst ${type}& ${function}();\n}\n")
    string(APPEND entries "      &petstore::${name}::${function}(),\n")
  endforeach()
  file(CONFIGURE OUTPUT ${source} CONTENT "// Made by cmake/Services.cmake from services/services.txt.
#include \"${header}\"

${declarations}
namespace petstore {

const std::vector<const ${type}*>& ${index}() {
  static const std::vector<const ${type}*> kAll{
${entries}  };
  return kAll;
}

}  // namespace petstore
")
endfunction()

# petstore_all_services: service::all_services() (service/descriptor.h),
# every service's descriptor, for the programs that serve or inspect them
# all (the contract test).
function(petstore_add_service_index)
  set(libraries "")
  foreach(name ${PETSTORE_SERVICES})
    list(APPEND libraries ${name}_service)
  endforeach()
  set(source ${CMAKE_BINARY_DIR}/generated/all_services.cpp)
  petstore_index_services(${source} service/descriptor.h service::Descriptor descriptor service::all_services)
  add_library(petstore_all_services STATIC ${source})
  target_link_libraries(petstore_all_services PUBLIC ${libraries})
  petstore_set_warnings(petstore_all_services)
endfunction()

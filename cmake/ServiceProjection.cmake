# petstore_add_projection(<service>): the library <service>_projection, which
# folds a service's events into its read model
# (projection/<service>_projection.cpp) and says how the read model holds
# each aggregate (projection/records.cpp). The service links it, and so does
# petstore-audit's rebuild, which links all three.
function(petstore_add_projection service)
  add_library(${service}_projection STATIC projection/${service}_projection.cpp projection/records.cpp)
  target_link_libraries(${service}_projection PUBLIC ${service}_domain petstore_projection PRIVATE petstore_util)
  petstore_set_warnings(${service}_projection)
endfunction()

# petstore_add_projection(<service> <apply.lua symbol>): the library
# <service>_projection, which applies a service's events to its read model
# (projection/<service>_projection.cpp and its projection/apply.lua, embedded
# as <symbol>). The service links it, and so does petstore-audit's rebuild,
# which links all three: each service's embedded script therefore has a name
# of its own.
function(petstore_add_projection service symbol)
  set(lua)
  petstore_embed_text(lua projection/apply.lua ${symbol})
  add_library(${service}_projection STATIC projection/${service}_projection.cpp ${lua})
  target_include_directories(${service}_projection
    PRIVATE ${CMAKE_CURRENT_BINARY_DIR})
  target_link_libraries(${service}_projection PUBLIC ${service}_domain petstore_projection PRIVATE petstore_util)
  petstore_set_warnings(${service}_projection)
endfunction()

#include "pets/service.h"
#include "route_tables/route_table.h"

namespace petstore::contract {
namespace {

Operations operations() {
  return operations_of(pets::PetsService(offline_config("pets"), pets::Topics{}));
}

const RouteTable kTable(operations);

}  // namespace
}  // namespace petstore::contract

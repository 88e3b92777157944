#include "pets/service.h"
#include "route_tables/route_table.h"

petstore::contract::Operations petstore::contract::pets_operations() {
  return operations_of(pets::PetsService(offline_config("pets"), pets::Topics{}));
}

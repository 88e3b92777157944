#include "orders/service.h"
#include "route_tables/route_table.h"

petstore::contract::Operations petstore::contract::orders_operations() {
  return operations_of(
      orders::OrdersService(offline_config("orders"), orders::Topics{}, orders::AnswerWait{}));
}

#include "orders/service.h"
#include "route_tables/route_table.h"

namespace petstore::contract {
namespace {

Operations operations() {
  return operations_of(
      orders::OrdersService(offline_config("orders"), orders::Topics{}, orders::AnswerWait{}));
}

const RouteTable kTable(operations);

}  // namespace
}  // namespace petstore::contract

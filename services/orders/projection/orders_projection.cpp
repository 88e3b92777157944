#include "orders/projection/orders_projection.h"

#include "embedded/apply.lua.h"

namespace petstore::orders {

OrdersProjection::OrdersProjection(const OrderKeys& keys)
    : DomainProjection(keys.space(), kOrdersApplyLua, "orders", decode, aggregate_of) {}

}  // namespace petstore::orders

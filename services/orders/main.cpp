// The orders service: customer orders and their side of the order saga.
#include "orders/service.h"

int main() {
  return petstore::service::serve(petstore::orders::descriptor());
}

// The inventory service: per-pet stock and its side of the order saga.
#include "inventory/service.h"

int main() {
  return petstore::service::serve(petstore::inventory::descriptor());
}

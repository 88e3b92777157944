// The pets service: pets and their categories.
#include "pets/service.h"

int main() {
  return petstore::service::serve(petstore::pets::descriptor());
}

// The pets service: pets and their categories.
#include "pets/service.h"
#include "service/serve.h"

int main() {
  using namespace petstore;
  return service::serve("pets", 8081, [](const config::Env& env, const config::ServiceConfig& cfg) {
    return std::make_unique<pets::PetsService>(cfg, pets::topics_from(env));
  });
}

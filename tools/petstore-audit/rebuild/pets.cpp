#include "pets/projection/pets_projection.h"
#include "rebuild/read_models.h"

namespace petstore::audit {

ReadModel pets_read_model(const std::string& prefix) {
  pets::PetKeys keys(prefix);
  return {"pets", std::make_unique<pets::PetsProjection>(pets::PetsModel(keys)),
          pets::PetKeys::not_from_log(), "", ""};
}

}  // namespace petstore::audit

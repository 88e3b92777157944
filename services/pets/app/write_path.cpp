#include "pets/app/write_path.h"

namespace petstore::pets {

WritePath::WritePath(redis::Pool& pool, es::CatchUp& catch_up, ReadModel& read, PetsProjection& projection,
                     Topics topics)
    : catch_up_(catch_up), read_(read), own_(pool, catch_up, projection), topics_(std::move(topics)) {}

}  // namespace petstore::pets

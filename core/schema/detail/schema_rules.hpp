#pragma once
// Rules every definition parser (.msg, IDL) applies to the types it built.

#include "core/base/result.hpp"
#include "core/schema/schema.hpp"

namespace bagscope::schema::detail {

/// Schema error when a type contains itself (directly or through others): decoders assume none.
Result<void> checkNoCycles(const MessageSchema& schema);

/// rosidl gives a ROS 2 type without fields (std_msgs/Empty, a type of constants only) one
/// uint8 member, so in CDR such a message takes one byte; this adds it where it is missing.
void addPlaceholderMembers(MessageSchema& schema);

}  // namespace bagscope::schema::detail

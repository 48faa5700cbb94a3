#pragma once
// Secrets known by their shape, wherever a report carries them: a token pasted into
// NCCL_DEBUG_FILE or a proxy variable, a presigned URL in a log line. Each shape is a format its
// issuer documents (the URLs are in secret_shapes.cpp); what is found is replaced, its prefix
// kept so that a reader still sees which kind of secret stood there.
#include <string>
#include <string_view>

namespace gpudoctor {

/// `text` with every secret of a known shape replaced by "<secret>" (after the issuer's
/// prefix: "ghp_<secret>"), and the user and password of a proxy written without a scheme
/// ("alice:pw@proxy:3128") by "<credentials>"; `removed` counts them.
std::string strip_secret_shapes(std::string_view text, int& removed);

}  // namespace gpudoctor

import Digest

/// Subscription feed tokens: the secret tokens of ``SecretTokens`` (256 random bits, 43 base64url characters, only
/// their SHA-256 stored).
public typealias FeedTokens = SecretTokens

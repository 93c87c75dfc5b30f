#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A run of bytes inside the tokenizer's buffer, valid only until the next call to
/// ``XMLTokenizer/next()`` or ``XMLTokenizer/append(_:)``.
public struct ByteSpan {
  /// The first byte.
  public var start: UnsafePointer<UInt8>
  /// The number of bytes.
  public var count: Int

  /// A span of `count` bytes from `start`.
  @inlinable
  public init(start: UnsafePointer<UInt8>, count: Int) {
    self.start = start
    self.count = count
  }

  /// Whether the bytes equal `literal` (ASCII).
  @inlinable @inline(__always)
  public func equals(_ literal: StaticString) -> Bool {
    count == literal.utf8CodeUnitCount && memcmp(start, literal.utf8Start, count) == 0
  }

  /// Whether the bytes start with `literal` (ASCII).
  @inlinable @inline(__always)
  public func hasPrefix(_ literal: StaticString) -> Bool {
    count >= literal.utf8CodeUnitCount && memcmp(start, literal.utf8Start, literal.utf8CodeUnitCount) == 0
  }

  /// Whether `literal` occurs anywhere in the bytes.
  @inlinable
  public func contains(_ literal: StaticString) -> Bool {
    let needle = literal.utf8CodeUnitCount
    guard needle > 0, count >= needle else { return needle == 0 }
    let first = literal.utf8Start.pointee
    var index = 0
    while index <= count - needle {
      if start[index] == first, memcmp(start + index, literal.utf8Start, needle) == 0 { return true }
      index += 1
    }
    return false
  }

  /// The bytes after the first `n`.
  @inlinable
  public func dropFirst(_ n: Int) -> ByteSpan { ByteSpan(start: start + min(n, count), count: max(0, count - n)) }

  /// The bytes after the last `:`, the local part of a prefixed name (`gpxtpx:hr` → `hr`).
  @inlinable
  public var localName: ByteSpan {
    var index = count - 1
    while index >= 0 {
      if start[index] == UInt8(ascii: ":") { return dropFirst(index + 1) }
      index -= 1
    }
    return self
  }

  /// The bytes as a buffer.
  @inlinable
  public var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: start, count: count) }

  /// The bytes as a Swift string (UTF-8, invalid sequences repaired).
  public var string: String { String(decoding: buffer, as: UTF8.self) }
}

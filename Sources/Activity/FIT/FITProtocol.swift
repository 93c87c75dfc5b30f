// The FIT protocol's wire layer, written from Garmin's published FIT SDK documentation ("FIT Protocol"): the
// file header, record headers, definition messages (architecture, field and developer field definitions), base
// types with their invalid values, and the CRC-16 that closes the header and the file.

/// A FIT base type: its size in bytes, its signedness and its "invalid" value (the value a device writes for "no
/// reading"). The base type byte's low five bits number it (0 enum … 16 uint64z); bit 7 only says it is a multi-byte
/// type whose byte order follows the definition's architecture.
struct FITBaseType: Sendable {
  /// The base type number (the low five bits of the base type byte).
  var number: UInt8
  /// The size in bytes of one value.
  var size: Int
  /// The name used in messages (`uint32`).
  var name: String

  /// The base types by number, from the FIT SDK's table.
  static let all: [FITBaseType] = [
    .init(number: 0, size: 1, name: "enum"), .init(number: 1, size: 1, name: "sint8"),
    .init(number: 2, size: 1, name: "uint8"), .init(number: 3, size: 2, name: "sint16"),
    .init(number: 4, size: 2, name: "uint16"), .init(number: 5, size: 4, name: "sint32"),
    .init(number: 6, size: 4, name: "uint32"), .init(number: 7, size: 1, name: "string"),
    .init(number: 8, size: 4, name: "float32"), .init(number: 9, size: 8, name: "float64"),
    .init(number: 10, size: 1, name: "uint8z"), .init(number: 11, size: 2, name: "uint16z"),
    .init(number: 12, size: 4, name: "uint32z"), .init(number: 13, size: 1, name: "byte"),
    .init(number: 14, size: 8, name: "sint64"), .init(number: 15, size: 8, name: "uint64"),
    .init(number: 16, size: 8, name: "uint64z"),
  ]

  /// The base type a base type byte names, or nil for an unknown number.
  static func named(byte: UInt8) -> FITBaseType? {
    let number = Int(byte & 0x1F)
    return number < all.count ? all[number] : nil
  }
}

/// The CRC-16 of the FIT protocol (polynomial 0x8005 reflected, initial value 0: the SDK's nibble table computes the
/// same as this byte table).
enum FITCRC {
  /// The byte-at-a-time table.
  static let table: [UInt16] = (0..<256).map { index -> UInt16 in
    var crc = UInt16(index)
    for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
    return crc
  }

  /// `crc` continued over `count` bytes at `bytes`.
  static func update(_ crc: UInt16, _ bytes: UnsafeRawPointer, count: Int) -> UInt16 {
    table.withUnsafeBufferPointer { table in
      var crc = crc
      for index in 0..<count {
        let byte = bytes.load(fromByteOffset: index, as: UInt8.self)
        crc = (crc >> 8) ^ table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)]
      }
      return crc
    }
  }
}

/// One field of a definition message that the decoder reads (the others are skipped by size).
struct FITFieldPlan: Sendable {
  /// What the field means (a ``FITField`` raw value).
  var field: FITField
  /// The byte offset of the field within the data message's content (after the record header).
  var offset: Int
  /// The field's base type number (``FITBaseType/number``).
  var baseType: UInt8
  /// The field's size in bytes (a multiple of the base type's size; arrays are read at their first element).
  var size: Int
}

/// The fields the activity summary needs, across messages (`file_id.type`, `record.distance`, …).
enum FITField: UInt8, Sendable {
  case timestamp
  case fileType
  case sport, subSport, sportName
  case startTime, totalElapsedTime, totalTimerTime, totalDistance, averageHeartRate, maximumHeartRate, totalAscent
  case latitude, longitude, distance, speed, enhancedSpeed, heartRate, cadence, altitude, enhancedAltitude
}

/// Global message numbers and field numbers, from the FIT profile (Profile.xlsx, "Messages").
enum FITMessage {
  static let fileID: UInt16 = 0
  static let sport: UInt16 = 12
  static let session: UInt16 = 18
  static let lap: UInt16 = 19
  static let record: UInt16 = 20

  /// The field numbers read in each message; every message's field 253 is its timestamp.
  static func field(global: UInt16, number: UInt8) -> FITField? {
    if number == 253 { return .timestamp }
    switch global {
    case fileID: return number == 0 ? .fileType : nil
    case sport:
      switch number {
      case 0: return .sport
      case 1: return .subSport
      case 3: return .sportName
      default: return nil
      }
    case session, lap:
      switch number {
      case 2: return .startTime
      case 7: return .totalElapsedTime
      case 8: return .totalTimerTime
      case 9: return .totalDistance
      // session: 5 sport, 6 sub_sport, 16 avg_heart_rate, 17 max_heart_rate, 22 total_ascent;
      // lap: 25 sport, 39 sub_sport, 15 avg_heart_rate, 16 max_heart_rate, 21 total_ascent.
      case 5 where global == session, 25 where global == lap: return .sport
      case 6 where global == session, 39 where global == lap: return .subSport
      case 16 where global == session, 15 where global == lap: return .averageHeartRate
      case 17 where global == session, 16 where global == lap: return .maximumHeartRate
      case 22 where global == session, 21 where global == lap: return .totalAscent
      default: return nil
      }
    case record:
      switch number {
      case 0: return .latitude
      case 1: return .longitude
      case 2: return .altitude
      case 3: return .heartRate
      case 4: return .cadence
      case 5: return .distance
      case 6: return .speed
      case 73: return .enhancedSpeed
      case 78: return .enhancedAltitude
      default: return nil
      }
    default: return nil
    }
  }
}

/// A definition message as the decoder keeps it for its local message type.
struct FITDefinition: Sendable {
  /// The global message number (`record` is 20).
  var global: UInt16
  /// Whether multi-byte values are big-endian (architecture 1).
  var bigEndian: Bool
  /// The size in bytes of a data message's content: every field and developer field.
  var size: Int
  /// The fields read (but the timestamp); the others are skipped.
  var plans: [FITFieldPlan]
  /// The timestamp field (253), when the message has one.
  var timestamp: FITFieldPlan?
  /// Whether the activity summary reads this message (file_id, sport, session, lap, record).
  var interesting: Bool
}

/// Reads fields out of one data message's content.
struct FITValues {
  /// The content (after the record header).
  var bytes: UnsafeRawPointer
  /// Whether multi-byte values are big-endian.
  var bigEndian: Bool

  /// The unsigned integer of `size` bytes at `offset`.
  @inline(__always)
  func unsigned(_ offset: Int, _ size: Int) -> UInt64 {
    switch size {
    case 1: return UInt64(bytes.load(fromByteOffset: offset, as: UInt8.self))
    case 2:
      let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
      return UInt64(bigEndian ? UInt16(bigEndian: raw) : UInt16(littleEndian: raw))
    case 4:
      let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
      return UInt64(bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw))
    default:
      let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      return bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw)
    }
  }

  /// The field's number (its first element), or nil when the device wrote the base type's invalid value.
  @inline(__always)
  func number(_ plan: FITFieldPlan) -> Double? {
    let base = plan.baseType
    switch base {
    case 0, 2, 13:  // enum, uint8, byte
      let value = unsigned(plan.offset, 1)
      return value == 0xFF ? nil : Double(value)
    case 1:
      let value = Int8(truncatingIfNeeded: unsigned(plan.offset, 1))
      return value == Int8.max ? nil : Double(value)
    case 3:
      let value = Int16(truncatingIfNeeded: unsigned(plan.offset, 2))
      return value == Int16.max ? nil : Double(value)
    case 4:
      let value = unsigned(plan.offset, 2)
      return value == 0xFFFF ? nil : Double(value)
    case 5:
      let value = Int32(truncatingIfNeeded: unsigned(plan.offset, 4))
      return value == Int32.max ? nil : Double(value)
    case 6:
      let value = unsigned(plan.offset, 4)
      return value == 0xFFFF_FFFF ? nil : Double(value)
    case 8:
      let bits = UInt32(truncatingIfNeeded: unsigned(plan.offset, 4))
      let value = Float(bitPattern: bits)
      return bits == 0xFFFF_FFFF || !value.isFinite ? nil : Double(value)
    case 9:
      let bits = unsigned(plan.offset, 8)
      let value = Double(bitPattern: bits)
      return bits == UInt64.max || !value.isFinite ? nil : value
    case 10, 11, 12, 16:  // uint8z, uint16z, uint32z, uint64z: 0 is invalid
      let value = unsigned(plan.offset, FITBaseType.all[Int(base)].size)
      return value == 0 ? nil : Double(value)
    case 14:
      let value = Int64(bitPattern: unsigned(plan.offset, 8))
      return value == Int64.max ? nil : Double(value)
    case 15:
      let value = unsigned(plan.offset, 8)
      return value == UInt64.max ? nil : Double(value)
    default:  // string: not a number
      return nil
    }
  }

  /// The field as a string (UTF-8 up to the first NUL), or nil when it is empty or not a string.
  func string(_ plan: FITFieldPlan) -> String? {
    guard plan.baseType == 7 else { return nil }
    let raw = UnsafeRawBufferPointer(start: bytes + plan.offset, count: plan.size)
    let text = raw.prefix { $0 != 0 }
    guard !text.isEmpty else { return nil }
    return String(decoding: text, as: UTF8.self)
  }
}

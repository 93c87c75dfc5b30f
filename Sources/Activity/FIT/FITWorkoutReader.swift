extension FITWorkoutFile {
  /// The workout a FIT workout file holds: the header and file CRCs checked, definition and data messages of either
  /// architecture read, `file_id` (type 5), `workout` and `workout_step` kept, every other message skipped by size.
  /// Throws ``ActivityError/fit(file:offset:detail:)`` naming `file` and the byte at fault.
  public static func decode(_ bytes: [UInt8], file: String) throws(ActivityError) -> FITWorkoutFile {
    func fail(_ offset: Int, _ detail: String) -> ActivityError { .fit(file: file, offset: offset, detail: detail) }
    func crc(_ range: Range<Int>) -> UInt16 {
      bytes[range].withUnsafeBytes { raw in raw.baseAddress.map { FITCRC.update(0, $0, count: raw.count) } ?? 0 }
    }
    guard bytes.count >= 14, bytes[0] == 14 || bytes[0] == 12, Array(bytes[8..<12]) == Array(".FIT".utf8) else {
      throw fail(0, "not a FIT file (no 12- or 14-byte header with \".FIT\")")
    }
    let headerSize = Int(bytes[0])
    func unsigned(_ at: Int, _ size: Int, bigEndian: Bool = false) -> UInt64 {
      var value: UInt64 = 0
      for index in 0..<size {
        let byte = UInt64(bytes[at + (bigEndian ? index : size - 1 - index)])
        value = value << 8 | byte
      }
      return value
    }
    let dataSize = Int(unsigned(4, 4))
    guard headerSize + dataSize + 2 <= bytes.count else {
      throw fail(4, "the header declares \(dataSize) bytes of data, the file holds fewer (truncated?)")
    }
    if headerSize == 14, unsigned(12, 2) != 0, UInt16(unsigned(12, 2)) != crc(0..<12) {
      throw fail(12, "header CRC is \(hex(UInt16(unsigned(12, 2)))), its bytes give \(hex(crc(0..<12)))")
    }
    let end = headerSize + dataSize
    guard UInt16(unsigned(end, 2)) == crc(0..<end) else {
      throw fail(end, "file CRC is \(hex(UInt16(unsigned(end, 2)))), its bytes give \(hex(crc(0..<end)))")
    }
    struct Definition {
      var global: UInt16
      var bigEndian: Bool
      var fields: [(number: UInt8, size: Int, base: UInt8)]
      var size: Int
    }
    var definitions = [Definition?](repeating: nil, count: 16)
    var result = FITWorkoutFile(name: "", timeCreated: 0, serialNumber: 0, steps: [])
    var fileType: UInt8?
    var at = headerSize
    while at < end {
      let header = bytes[at]
      guard header & 0x80 == 0 else { throw fail(at, "compressed timestamp header in a workout file") }
      if header & 0x40 != 0 {
        guard at + 6 <= end else { throw fail(at, "a definition message runs past the data") }
        let bigEndian = bytes[at + 2] == 1
        let count = Int(bytes[at + 5])
        guard at + 6 + 3 * count <= end else { throw fail(at, "a definition message runs past the data") }
        var fields: [(number: UInt8, size: Int, base: UInt8)] = []
        for index in 0..<count {
          let position = at + 6 + 3 * index
          fields.append((bytes[position], Int(bytes[position + 1]), bytes[position + 2] & 0x1F))
        }
        var size = fields.reduce(0) { $0 + $1.size }
        var next = at + 6 + 3 * count
        if header & 0x20 != 0 {
          let developer = Int(bytes[next])
          for index in 0..<developer { size += Int(bytes[next + 1 + 3 * index + 1]) }
          next += 1 + 3 * developer
        }
        definitions[Int(header & 0x0F)] = Definition(
          global: UInt16(unsigned(at + 3, 2, bigEndian: bigEndian)), bigEndian: bigEndian, fields: fields, size: size)
        at = next
        continue
      }
      guard let definition = definitions[Int(header & 0x0F)] else {
        throw fail(at, "data message of local type \(header & 0x0F), which no definition message has defined")
      }
      guard at + 1 + definition.size <= end else { throw fail(at, "a data message runs past the data") }
      var values: [UInt8: UInt64] = [:]
      var strings: [UInt8: String] = [:]
      var offset = at + 1
      for field in definition.fields {
        if field.base == 7 {
          strings[field.number] = String(
            decoding: bytes[offset..<offset + field.size].prefix { $0 != 0 }, as: UTF8.self)
        } else if [1, 2, 4, 8].contains(field.size) {
          values[field.number] = unsigned(offset, field.size, bigEndian: definition.bigEndian)
        }
        offset += field.size
      }
      switch definition.global {
      case fileIDMessage:
        fileType = values[0].map { UInt8(truncatingIfNeeded: $0) }
        result.serialNumber = UInt32(truncatingIfNeeded: values[3] ?? 0)
        result.timeCreated = UInt32(truncatingIfNeeded: values[4] ?? 0)
      case workoutMessage:
        result.name = strings[8] ?? ""
      case workoutStepMessage:
        result.steps.append(try step(values, strings, at: at, fail: fail))
      default: break
      }
      at += 1 + definition.size
    }
    guard fileType == fileTypeWorkout else {
      throw fail(headerSize, "file_id.type is \(fileType.map(String.init) ?? "missing"), not 5 (workout)")
    }
    return result
  }

  private static func step(
    _ values: [UInt8: UInt64], _ strings: [UInt8: String], at: Int, fail: (Int, String) -> ActivityError
  ) throws(ActivityError) -> FITWorkoutStep {
    let value = UInt32(truncatingIfNeeded: values[2] ?? 0xFFFF_FFFF)
    let duration: FITStepDuration
    switch values[1] {
    case 0: duration = .milliseconds(value)
    case 1: duration = .centimeters(value)
    case 5: duration = .open
    case 6: duration = .repeatSteps(fromStep: UInt16(truncatingIfNeeded: value), count: UInt32(values[4] ?? 0))
    default: throw fail(at, "workout_step duration_type \(values[1].map(String.init) ?? "missing") is not read")
    }
    var target = FITStepTarget.open
    if values[3] == 0 {
      target = .speed(
        lowMillimetersPerSecond: UInt32(truncatingIfNeeded: values[5] ?? 0),
        highMillimetersPerSecond: UInt32(truncatingIfNeeded: values[6] ?? 0))
    } else if values[3] == 1 {
      // Custom heart rates are bpm + 100 (0 to 100 are % of the maximum, which this writer never writes).
      let (low, high) = (values[5] ?? 0, values[6] ?? 0)
      guard low > 100, high > 100 else {
        throw fail(at, "workout_step heart-rate target \(low)-\(high) is not in bpm + 100")
      }
      target = .heartRate(
        lowBPM: UInt32(truncatingIfNeeded: low - 100), highBPM: UInt32(truncatingIfNeeded: high - 100))
    }
    return FITWorkoutStep(
      name: strings[0] ?? "", duration: duration, target: target,
      intensity: values[7].flatMap { FITStepIntensity(rawValue: UInt8(truncatingIfNeeded: $0)) })
  }
}

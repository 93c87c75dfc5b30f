import Foundation

/// Decodes a FIT file's records in one pass: the file header (12 or 14 bytes, ".FIT", optional header CRC), then
/// definition and data messages (normal and compressed-timestamp record headers, either architecture, developer
/// fields skipped by their declared sizes) up to the data size the header declares, then the file's CRC-16; chained
/// FIT files (another header after the CRC) are read on. Each data message of a kind the summary needs goes to a
/// ``FITActivityBuilder``; every other message is skipped by size.
///
/// Work and memory are bounded by the file: every byte is read once, the window is 256 KiB, at most 16 definitions
/// are held, and a header that declares more data than the file holds is refused before anything else is read.
struct FITDecoder {
  /// The name used in errors.
  let file: String
  private let input: FITInput
  private var builder: FITActivityBuilder
  /// The definition of each local message type (0–15), once defined.
  private var definitions = [FITDefinition?](repeating: nil, count: 16)
  /// The last full timestamp (FIT seconds), the base of compressed-timestamp headers.
  private var lastTimestamp: UInt32?

  /// A decoder of `input`, named `file` in errors.
  init(input: FITInput, file: String, limits: ActivityLimits) {
    self.input = input
    self.file = file
    builder = FITActivityBuilder(file: file, limits: limits)
  }

  private func error(_ offset: Int, _ detail: String) -> ActivityError {
    .fit(file: file, offset: offset, detail: detail)
  }

  /// Reads the whole input and returns its activities.
  mutating func decode() throws(ActivityError) -> [ActivitySummary] {
    if input.atEnd() {
      if let reason = input.readError { throw .unreadable(file: file, reason: reason) }
      throw .empty(file: file)
    }
    repeat {
      try decodeOne()
    } while !input.atEnd()
    if let reason = input.readError { throw .unreadable(file: file, reason: reason) }
    // Sessions written together after all their records (a multisport file): read the records again, each folded
    // into the session whose time span holds it.
    if let ranges = builder.sessionRangesNeeded, input.rewind() {
      builder = FITActivityBuilder(file: file, limits: builder.limits, sessionRanges: ranges)
      definitions = [FITDefinition?](repeating: nil, count: 16)
      lastTimestamp = nil
      repeat {
        try decodeOne()
      } while !input.atEnd()
    }
    return try builder.finish()
  }

  /// Reads one FIT file (header, messages, CRC) of a possibly chained input.
  private mutating func decodeOne() throws(ActivityError) {
    let headerOffset = input.offset
    input.resetCRC()
    guard input.ensure(12) else {
      throw error(headerOffset, "not a FIT file: \(input.available) bytes, shorter than a FIT header (12)")
    }
    var bytes = input.pointer
    let headerSize = Int(bytes.load(as: UInt8.self))
    let signature = (8..<12).map { bytes.load(fromByteOffset: $0, as: UInt8.self) }
    guard signature == Array(".FIT".utf8) else {
      throw error(headerOffset + 8, "not a FIT file (no \".FIT\" signature at byte \(headerOffset + 8))")
    }
    guard headerSize == 12 || headerSize == 14 else {
      throw error(headerOffset, "FIT header size \(headerSize) is not 12 or 14")
    }
    let dataSize = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self)))
    if headerSize == 14 {
      guard input.ensure(14) else { throw truncated(at: headerOffset + input.available, inside: "the header") }
      bytes = input.pointer
      let stored = UInt16(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt16.self))
      let computed = FITCRC.update(0, bytes, count: 12)
      if stored != 0, stored != computed {
        throw error(headerOffset + 12, "header CRC is \(hex(stored)), its bytes give \(hex(computed)) (corrupt file)")
      }
    }
    let dataStart = headerOffset + headerSize
    let dataEnd = dataStart + dataSize
    if let size = input.size, dataEnd + 2 > size {
      throw error(
        headerOffset + 4,
        "the header declares \(dataSize) bytes of data and a 2-byte CRC, but the file holds "
          + "\(max(0, size - dataStart)) bytes after the header (truncated?)")
    }
    input.consume(headerSize)
    while input.offset < dataEnd {
      try message(dataEnd: dataEnd)
    }
    let crcOffset = input.offset
    let computed = input.crc
    guard input.ensure(2) else { throw truncated(at: crcOffset + input.available, inside: "the file's CRC") }
    let stored = UInt16(littleEndian: input.pointer.loadUnaligned(as: UInt16.self))
    guard stored == computed else {
      throw error(crcOffset, "file CRC is \(hex(stored)), its bytes give \(hex(computed)) (corrupt file)")
    }
    input.consume(2)
  }

  private func truncated(at offset: Int, inside what: String) -> ActivityError {
    if let reason = input.readError { return .unreadable(file: file, reason: reason) }
    return error(offset, "the file ends inside \(what) (truncated?)")
  }

  /// Reads one message (definition or data) that must end by `dataEnd`.
  @inline(__always)
  private mutating func message(dataEnd: Int) throws(ActivityError) {
    let at = input.offset
    guard input.ensure(1) else { throw truncated(at: at, inside: "a message header") }
    let header = input.pointer.load(as: UInt8.self)
    if header & 0x80 == 0, header & 0x40 != 0 {
      try definition(header: header, at: at, dataEnd: dataEnd)
      return
    }
    let compressed = header & 0x80 != 0
    let local = Int(compressed ? (header >> 5) & 0x03 : header & 0x0F)
    guard let definition = definitions[local] else {
      throw error(at, "data message of local type \(local), which no definition message has defined")
    }
    let total = 1 + definition.size
    guard at + total <= dataEnd else { throw pastEnd(at: at, total: total, dataEnd: dataEnd) }
    guard input.ensure(total) else { throw truncated(at: at + input.available, inside: "a data message") }
    let values = FITValues(bytes: input.pointer + 1, bigEndian: definition.bigEndian)
    var time: UInt32?
    if compressed {
      guard let last = lastTimestamp else {
        throw error(at, "compressed timestamp header before any message with a timestamp")
      }
      let offset = UInt32(header & 0x1F)
      var stamped = (last & ~0x1F) &+ offset
      if offset < last & 0x1F { stamped = stamped &+ 0x20 }
      time = stamped
      lastTimestamp = stamped
    } else if let plan = definition.timestamp, let value = values.number(plan) {
      time = UInt32(truncatingIfNeeded: Int64(value))
      lastTimestamp = time
    }
    if definition.interesting {
      try builder.message(definition, values, time: time, offset: at)
    }
    input.consume(total)
  }

  private func pastEnd(at: Int, total: Int, dataEnd: Int) -> ActivityError {
    error(at, "a \(total)-byte message runs past the end of the data the header declares (byte \(dataEnd))")
  }

  /// Reads a definition message and keeps it for its local type.
  private mutating func definition(header: UInt8, at: Int, dataEnd: Int) throws(ActivityError) {
    guard input.ensure(6) else { throw truncated(at: at + input.available, inside: "a definition message") }
    var bytes = input.pointer
    let architecture = bytes.load(fromByteOffset: 2, as: UInt8.self)
    guard architecture <= 1 else {
      throw error(at + 2, "definition architecture \(architecture) is not 0 (little-endian) or 1 (big-endian)")
    }
    let bigEndian = architecture == 1
    let rawGlobal = bytes.loadUnaligned(fromByteOffset: 3, as: UInt16.self)
    let global = bigEndian ? UInt16(bigEndian: rawGlobal) : UInt16(littleEndian: rawGlobal)
    let fieldCount = Int(bytes.load(fromByteOffset: 5, as: UInt8.self))
    var total = 6 + 3 * fieldCount
    let hasDeveloperFields = header & 0x20 != 0
    var developerCount = 0
    if hasDeveloperFields {
      guard at + total + 1 <= dataEnd else { throw pastEnd(at: at, total: total + 1, dataEnd: dataEnd) }
      guard input.ensure(total + 1) else {
        throw truncated(at: at + input.available, inside: "a definition message")
      }
      developerCount = Int(input.pointer.load(fromByteOffset: total, as: UInt8.self))
      total += 1 + 3 * developerCount
    }
    guard at + total <= dataEnd else { throw pastEnd(at: at, total: total, dataEnd: dataEnd) }
    guard input.ensure(total) else { throw truncated(at: at + input.available, inside: "a definition message") }
    bytes = input.pointer
    var size = 0
    var plans: [FITFieldPlan] = []
    var timestamp: FITFieldPlan?
    for index in 0..<fieldCount {
      let position = 6 + 3 * index
      let number = bytes.load(fromByteOffset: position, as: UInt8.self)
      let fieldSize = Int(bytes.load(fromByteOffset: position + 1, as: UInt8.self))
      let baseByte = bytes.load(fromByteOffset: position + 2, as: UInt8.self)
      guard let base = FITBaseType.named(byte: baseByte) else {
        throw error(at + position + 2, "field \(number) of message \(global) has unknown base type \(hex(baseByte))")
      }
      let field = FITMessage.field(global: global, number: number)
      // A field the summary reads must fit its base type; any other is skipped by its size (as devices such as the
      // Coros Pace 2 write a 1-byte event field declared uint32, which Garmin's SDK reads past too).
      guard fieldSize % base.size == 0 || field == nil else {
        throw error(
          at + position + 1,
          "field \(number) of message \(global) is \(fieldSize) bytes, not a multiple of \(base.name)'s \(base.size)")
      }
      if fieldSize >= base.size, let field {
        let plan = FITFieldPlan(field: field, offset: size, baseType: base.number, size: fieldSize)
        if field == .timestamp { timestamp = plan } else { plans.append(plan) }
      }
      size += fieldSize
    }
    for index in 0..<developerCount {
      // Developer fields (field number, size, developer data index): skipped by their declared size.
      size += Int(bytes.load(fromByteOffset: 6 + 3 * fieldCount + 1 + 3 * index + 1, as: UInt8.self))
    }
    let interesting = [FITMessage.fileID, FITMessage.sport, FITMessage.session, FITMessage.lap, FITMessage.record]
      .contains(global)
    definitions[Int(header & 0x0F)] = FITDefinition(
      global: global, bigEndian: bigEndian, size: size, plans: plans, timestamp: timestamp, interesting: interesting)
    input.consume(total)
  }
}

/// `0x1A2B`.
func hex(_ value: UInt16) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return "0x" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

/// `0x1A`.
func hex(_ value: UInt8) -> String {
  let digits = String(value, radix: 16, uppercase: true)
  return "0x" + (digits.count < 2 ? "0" : "") + digits
}

internal import CLibical

#if canImport(Glibc)
  internal import Glibc
#elseif canImport(Darwin)
  internal import Darwin
#endif

// Ownership of libical memory, in one file.
//
// Every libical handle imports as `OpaquePointer` (components, properties and zones look alike) and every
// returned pointer is an implicitly unwrapped optional (the headers have no nullability). The rules:
//
// - An owned tree or property lives in a noncopyable value (`OwnedComponent`, `OwnedProperty`) whose
//   `deinit` frees it. Adding it to a parent *consumes* the value (`add(_:)`), so the compiler rejects a
//   second owner, a use after the move, and a free of a child that now belongs to its parent.
// - Pointers obtained from a tree (children, properties, zones of a parsed VCALENDAR) are borrowed: they
//   are only used inside `withPointer`, during which the owner is alive.
// - Builtin zones (`icaltimezone_get_builtin_timezone`) belong to libical's process-wide cache: never freed
//   here, never stored in globals, looked up per call.
// - Buffers from `icalcomponent_as_ical_string_r` and iterators are freed with `defer` in the function
//   that made them.

/// An icalcomponent this value owns and frees, unless it was consumed by ``add(_:)`` or ``release()``.
struct OwnedComponent: ~Copyable {
  private let pointer: OpaquePointer

  /// Creates an empty component. The corresponding libical function is `icalcomponent_new`.
  init(kind: icalcomponent_kind) throws(ICalendarError) {
    cical_clear_errno()
    guard let pointer = icalcomponent_new(kind) else {
      throw .libical(operation: "icalcomponent_new", detail: kindName(kind))
    }
    self.pointer = pointer
  }

  /// Takes ownership of a tree libical handed over (from `icalparser_parse_string`, `icalcomponent_new_clone`).
  init(adopting pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit {
    icalcomponent_free(pointer)
  }

  /// Moves `child` into this component; the parent frees it from now on.
  /// The corresponding libical function is `icalcomponent_add_component`.
  borrowing func add(_ child: consuming OwnedComponent) {
    icalcomponent_add_component(pointer, child.release())
  }

  /// Moves `property` into this component; the component frees it from now on.
  /// The corresponding libical function is `icalcomponent_add_property`.
  borrowing func add(_ property: consuming OwnedProperty) {
    icalcomponent_add_property(pointer, property.release())
  }

  /// Gives up ownership without freeing (the caller hands the pointer to a new owner at once).
  consuming func release() -> OpaquePointer {
    let pointer = self.pointer
    discard self
    return pointer
  }

  /// Lends the pointer for the duration of `body`; it must not escape.
  borrowing func withPointer<Result, Failure: Error>(
    _ body: (OpaquePointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(pointer)
  }

  /// Serializes the tree (CRLF line ends, folding at 75 octets, TEXT escaping) in two parts: the text up to its
  /// END line, and the END line (as libical writes it for an empty component of the kind, see
  /// ``ComponentFraming``). Further child components written in between (as libical writes them) give the text
  /// libical would write had those children been added last.
  /// The corresponding libical functions are `icalcomponent_as_ical_string_r` and `icalmemory_free_buffer`.
  borrowing func icalTextSplitAtEnd(reserving extra: Int) throws(ICalendarError) -> (head: [UInt8], end: [UInt8]) {
    let end = try ComponentFraming(kind: icalcomponent_isa(pointer)).end
    cical_clear_errno()
    guard let buffer = icalcomponent_as_ical_string_r(pointer) else {
      throw .libical(operation: "icalcomponent_as_ical_string_r")
    }
    defer { icalmemory_free_buffer(buffer) }
    let text = UnsafeBufferPointer(
      start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: length(of: buffer))
    // libical ends a component with its END line.
    guard text.count >= end.count, text.suffix(end.count).elementsEqual(end) else {
      throw .libical(operation: "icalcomponent_as_ical_string_r", detail: "the text does not end with its END line")
    }
    var head: [UInt8] = []
    head.reserveCapacity(text.count + extra)
    head.append(contentsOf: UnsafeBufferPointer(rebasing: text[..<(text.count - end.count)]))
    return (head, end)
  }

  /// The bytes of the whole tree as libical writes them (CRLF line ends, folding at 75 octets, TEXT escaping).
  /// The corresponding libical functions are `icalcomponent_as_ical_string_r` and `icalmemory_free_buffer`.
  borrowing func icalBytes() throws(ICalendarError) -> [UInt8] {
    cical_clear_errno()
    guard let buffer = icalcomponent_as_ical_string_r(pointer) else {
      throw .libical(operation: "icalcomponent_as_ical_string_r", detail: kindName(icalcomponent_isa(pointer)))
    }
    defer { icalmemory_free_buffer(buffer) }
    var bytes: [UInt8] = []
    appendCString(buffer, to: &bytes)
    return bytes
  }

  /// Serializes the whole tree as libical does (CRLF line ends, folding at 75 octets, TEXT escaping).
  /// The corresponding libical functions are `icalcomponent_as_ical_string_r` and `icalmemory_free_buffer`.
  borrowing func icalText() throws(ICalendarError) -> String {
    String(decoding: try icalBytes(), as: UTF8.self)
  }
}

/// The BEGIN and END lines libical writes around a component of one kind (`BEGIN:VEVENT` + CRLF, `END:VEVENT` +
/// CRLF), taken from libical's text of an empty component of that kind, so that a writer putting a component
/// together line by line writes only bytes libical made.
/// The corresponding libical functions are `icalcomponent_new`, `icalcomponent_as_ical_string_r` and
/// `icalmemory_free_buffer`.
struct ComponentFraming {
  /// The BEGIN line, CRLF included.
  let begin: [UInt8]
  /// The END line, CRLF included.
  let end: [UInt8]

  /// Asks libical for the two lines of an empty component of `kind`.
  /// - Throws: ``ICalendarError`` when libical cannot make or write the component, or writes it as anything but
  ///   two CRLF-terminated lines.
  init(kind: icalcomponent_kind) throws(ICalendarError) {
    let text = try OwnedComponent(kind: kind).icalBytes()
    // An empty component is written as exactly two lines, each ending in CRLF.
    let lineEnds = text.indices.dropLast().filter { text[$0] == 13 && text[$0 + 1] == 10 }
    guard lineEnds.count == 2, let first = lineEnds.first, lineEnds.last == text.count - 2 else {
      throw .libical(
        operation: "icalcomponent_as_ical_string_r",
        detail: "an empty \(kindName(kind)) is not written as a BEGIN and an END line")
    }
    begin = Array(text[..<(first + 2)])
    end = Array(text[(first + 2)...])
  }

  /// The lines of the kind libical names `name` (`VEVENT`).
  /// - Throws: ``ICalendarError`` for a name libical does not know, or as ``init(kind:)``.
  /// The corresponding libical function is `icalcomponent_string_to_kind`.
  init(kindNamed name: String) throws(ICalendarError) {
    let kind = name.withCString { icalcomponent_string_to_kind($0) }
    guard kind != ICAL_NO_COMPONENT, kind != ICAL_X_COMPONENT else {
      throw .libical(operation: "icalcomponent_string_to_kind", detail: name)
    }
    try self.init(kind: kind)
  }
}

/// Appends the text `icalproperty_as_ical_string_r(property)` returns (nothing for NULL: libical leaves such a
/// property out when it writes its component).
/// The corresponding libical functions are `icalproperty_as_ical_string_r` and `icalmemory_free_buffer`.
func appendPropertyText(of property: OpaquePointer, to bytes: inout [UInt8]) {
  guard let text = icalproperty_as_ical_string_r(property) else { return }
  appendCString(text, to: &bytes)
  icalmemory_free_buffer(text)
}

/// Appends the bytes of a NUL-terminated C string.
private func appendCString(_ string: UnsafePointer<CChar>, to bytes: inout [UInt8]) {
  let start = UnsafeRawPointer(string).assumingMemoryBound(to: UInt8.self)
  bytes.append(contentsOf: UnsafeBufferPointer(start: start, count: length(of: string)))
}

/// Appends the bytes of a literal.
private func appendASCII(_ text: StaticString, to bytes: inout [UInt8]) {
  bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
}

/// The length of a NUL-terminated C string. The corresponding C function is `strlen`.
private func length(of string: UnsafePointer<CChar>) -> Int {
  strlen(string)
}

/// Whether a text holds a NUL (libical would stop reading there). NUL is a control character, always a
/// Character of its own, so looking at the UTF-8 bytes gives the same answer as `text.contains("\0")`.
/// The corresponding C function is `memchr`.
func containsNUL(_ text: String) -> Bool {
  text.utf8.withContiguousStorageIfAvailable { bytes in
    guard let start = bytes.baseAddress else { return false }
    return memchr(start, 0, bytes.count) != nil
  } ?? text.utf8.contains(0)
}

/// A lock (a pthread mutex) for the little state this module shares between threads.
final class Lock: @unchecked Sendable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` while holding the lock.
  func withLock<Result>(_ body: () -> Result) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }
}

/// An icalproperty this value owns and frees, unless it was consumed by ``OwnedComponent/add(_:)``.
struct OwnedProperty: ~Copyable {
  private let pointer: OpaquePointer

  /// Wraps the result of an `icalproperty_new_*` call, turning NULL into an error.
  /// - Parameters:
  ///   - operation: The libical constructor called, for the error.
  ///   - detail: The value given, for the error (evaluated only when the constructor fails).
  ///   - make: The constructor call.
  init(
    _ operation: String, detail: @autoclosure () -> String? = nil, _ make: () -> OpaquePointer?
  ) throws(ICalendarError) {
    cical_clear_errno()
    guard let pointer = make() else { throw .libical(operation: operation, detail: detail()) }
    self.pointer = pointer
  }

  deinit {
    icalproperty_free(pointer)
  }

  /// Adds a parameter, which the property then owns.
  /// - Parameters:
  ///   - operation: The libical constructor called, for the error.
  ///   - make: The `icalparameter_new_*` call.
  /// The corresponding libical function is `icalproperty_add_parameter`.
  borrowing func addParameter(_ operation: String, _ make: () -> OpaquePointer?) throws(ICalendarError) {
    cical_clear_errno()
    guard let parameter = make() else { throw .libical(operation: operation) }
    icalproperty_add_parameter(pointer, parameter)
  }

  /// Lends the pointer for the duration of `body`; it must not escape.
  borrowing func withPointer<Result, Failure: Error>(
    _ body: (OpaquePointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try body(pointer)
  }

  /// Gives up ownership without freeing (the caller hands the pointer to a new owner at once).
  consuming func release() -> OpaquePointer {
    let pointer = self.pointer
    discard self
    return pointer
  }
}

/// An icalproperty kept for a whole serialization and given a new value for each event by a typed
/// `icalproperty_set_*` setter (libical frees the value it replaces); freed with this object. It belongs to no
/// component.
final class ReusableProperty {
  private let pointer: OpaquePointer

  /// Takes over a property made by an `icalproperty_new_*` constructor.
  init(_ property: consuming OwnedProperty) {
    pointer = property.release()
  }

  deinit {
    icalproperty_free(pointer)
  }

  /// Gives the property a new value with `set`.
  /// - Throws: ``ICalendarError`` naming `operation` and `detail` when libical reports an error (the new value
  ///   could not be made, so the property would keep its old one).
  func set(
    _ operation: String, detail: @autoclosure () -> String?, _ set: (OpaquePointer) -> Void
  ) throws(ICalendarError) {
    cical_clear_errno()
    set(pointer)
    guard cical_errno() == ICAL_NO_ERROR else { throw .libical(operation: operation, detail: detail()) }
  }

  /// Appends libical's text of the property (see ``appendPropertyText(of:to:)``).
  func appendText(to bytes: inout [UInt8]) {
    appendPropertyText(of: pointer, to: &bytes)
  }
}

// MARK: - Borrowed access to a tree

/// The direct children of `component` of one kind, in order. Uses an explicit iterator
/// (`icalcomponent_begin_component` + `icalcompiter_next`), because `get_first/get_next_component`
/// share one cursor per parent and break in nested loops.
func children(of component: OpaquePointer, kind: icalcomponent_kind) -> [OpaquePointer] {
  var iterator = icalcomponent_begin_component(component, kind)
  var result: [OpaquePointer] = []
  var current = icalcompiter_deref(&iterator)
  while let child = current {
    result.append(child)
    current = icalcompiter_next(&iterator)
  }
  return result
}

/// Calls `body` with each direct child of `component` of one kind, in order, without collecting them in an
/// array (same explicit iterator as ``children(of:kind:)``, so nested loops are safe).
func forEachChild<Failure: Error>(
  of component: OpaquePointer, kind: icalcomponent_kind, _ body: (OpaquePointer) throws(Failure) -> Void
) throws(Failure) {
  var iterator = icalcomponent_begin_component(component, kind)
  var current = icalcompiter_deref(&iterator)
  while let child = current {
    try body(child)
    current = icalcompiter_next(&iterator)
  }
}

/// The properties of `component` of one kind, in order (collected at once: the cursor is per component).
/// The corresponding libical functions are `icalcomponent_get_first_property`, `icalcomponent_get_next_property`.
func properties(of component: OpaquePointer, kind: icalproperty_kind) -> [OpaquePointer] {
  var result: [OpaquePointer] = []
  var current = icalcomponent_get_first_property(component, kind)
  while let property = current {
    result.append(property)
    current = icalcomponent_get_next_property(component, kind)
  }
  return result
}

/// The first property of a kind, or nil.
func firstProperty(of component: OpaquePointer, kind: icalproperty_kind) -> OpaquePointer? {
  icalcomponent_get_first_property(component, kind)
}

/// The TZID parameter of a property, or nil. The corresponding libical function is `icalparameter_get_tzid`.
func tzidParameter(of property: OpaquePointer) -> String? {
  guard let parameter = icalproperty_get_first_parameter(property, ICAL_TZID_PARAMETER) else { return nil }
  return icalparameter_get_tzid(parameter).map { String(cString: $0) }
}

/// A copy of a C string libical owns, or nil for NULL.
func copyString(_ pointer: UnsafePointer<CChar>?) -> String? {
  pointer.map { String(cString: $0) }
}

/// `VEVENT`, `VTIMEZONE`, … The corresponding libical function is `icalcomponent_kind_to_string`.
func kindName(_ kind: icalcomponent_kind) -> String {
  copyString(icalcomponent_kind_to_string(kind)) ?? "component"
}

/// `VEVENT 'uid'` for messages, or `VEVENT` when the component has no UID.
func componentLabel(_ component: OpaquePointer) -> String {
  let kind = kindName(icalcomponent_isa(component))
  // Not icalcomponent_get_uid: on a VCALENDAR it answers for the first event, and it moves a cursor.
  guard let property = firstProperty(of: component, kind: ICAL_UID_PROPERTY),
    let uid = copyString(icalproperty_get_uid(property)), !uid.isEmpty
  else { return kind }
  return "\(kind) '\(uid)'"
}

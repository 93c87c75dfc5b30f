import Foundation
import XMLStream

/// One `<response>` of a WebDAV multistatus (RFC 4918 §13): a resource, its ETag and what kind of collection it is.
public struct DAVEntry: Sendable, Hashable {
  /// The `<href>` as the server wrote it (a path, or an absolute URL), percent-encoded.
  public var href: String
  /// The `<getetag>` (quotes kept), nil when the server gave none.
  public var etag: String?
  /// Whether `<resourcetype>` holds `<collection/>`.
  public var isCollection: Bool
  /// Whether `<resourcetype>` holds CalDAV's `<calendar/>` (RFC 4791 §4.2).
  public var isCalendar: Bool
  /// The `<displayname>`, nil when the server gave none (or an empty one).
  public var displayName: String? = nil
  /// The href inside `<current-user-principal>` (RFC 5397), for discovery.
  public var principal: String? = nil
  /// The href inside CalDAV's `<calendar-home-set>` (RFC 4791 §6.2.1), for discovery.
  public var calendarHome: String? = nil
  /// The component names of `<supported-calendar-component-set>` (`VEVENT`, `VTODO`); empty when the server gave
  /// none (then every kind is allowed, RFC 4791 §5.2.3).
  public var components: [String] = []

  /// An entry.
  public init(href: String, etag: String?, isCollection: Bool, isCalendar: Bool) {
    self.href = href
    self.etag = etag
    self.isCollection = isCollection
    self.isCalendar = isCalendar
  }
}

/// Reads a `<multistatus>` body: the entries whose properties were found (a `<propstat>` with status 200).
/// Namespace prefixes are ignored (servers use `d:`, `D:`, `ns0:` or a default namespace for the same names).
/// - Throws: ``XMLStreamError`` for a document that is not well-formed XML; a body that is not a multistatus
///   gives no entries.
public func parseMultistatus(_ body: [UInt8]) throws(XMLStreamError) -> [DAVEntry] {
  var tokenizer = XMLTokenizer(doctypePolicy: .refuseInternalSubset)
  tokenizer.reportsText = true
  var offset = 0
  var path: [String] = []
  var entries: [DAVEntry] = []
  var href = ""
  var etag = ""
  var status = ""
  var propstatEtag: String?
  var propstatCollection = false
  var propstatCalendar = false
  var found = DAVEntry(href: "", etag: nil, isCollection: false, isCalendar: false)
  var text = ""
  var current: DAVEntry?
  reading: while true {
    switch try tokenizer.next() {
    case .needsInput:
      if offset >= body.count {
        tokenizer.endInput()
        continue
      }
      let taken = body[offset...].withUnsafeBytes { tokenizer.append($0) }
      offset += taken
    case .startElement(let tag):
      let name = tag.name.localName.string
      let parent = path.last
      if !tag.isEmpty { path.append(name) }
      switch name {
      case "response":
        href = ""
        current = DAVEntry(href: "", etag: nil, isCollection: false, isCalendar: false)
      case "propstat":
        status = ""
        propstatEtag = nil
        propstatCollection = false
        propstatCalendar = false
        found = DAVEntry(href: "", etag: nil, isCollection: false, isCalendar: false)
      case "getetag": etag = ""
      case "collection" where parent == "resourcetype": propstatCollection = true
      case "calendar" where parent == "resourcetype": propstatCalendar = true
      case "displayname", "href": text = ""
      case "comp" where parent == "supported-calendar-component-set":
        if let attribute = tag.value(of: "name") {
          found.components.append(
            attribute.hasReference ? XMLText.decode(attribute.value) : attribute.value.string)
        }
      default: break
      }
    case .text(let run):
      let piece = run.hasReferences ? XMLText.decode(run.span) : run.span.string
      switch path.last {
      case "href" where path.dropLast().last == "response": href += piece
      case "href", "displayname": text += piece
      case "getetag": etag += piece
      case "status": status += piece
      default: break
      }
    case .endElement:
      guard let name = path.popLast() else { continue }
      switch name {
      case "getetag": propstatEtag = etag.trimmingCharacters(in: .whitespacesAndNewlines)
      case "displayname":
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if !name.isEmpty { found.displayName = name }
      case "href":
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch path.last {
        case "current-user-principal": found.principal = value
        case "calendar-home-set" where found.calendarHome == nil: found.calendarHome = value
        default: break
        }
      case "propstat":
        // Only the properties the server found (HTTP/1.1 200); a 404 propstat lists the ones it has not.
        if status.contains(" 200") || status.isEmpty {
          if let tagged = propstatEtag, !tagged.isEmpty { current?.etag = tagged }
          if propstatCollection { current?.isCollection = true }
          if propstatCalendar { current?.isCalendar = true }
          if let name = found.displayName { current?.displayName = name }
          if let principal = found.principal { current?.principal = principal }
          if let home = found.calendarHome { current?.calendarHome = home }
          if !found.components.isEmpty { current?.components = found.components }
        }
      case "response":
        if var entry = current {
          entry.href = href.trimmingCharacters(in: .whitespacesAndNewlines)
          if !entry.href.isEmpty { entries.append(entry) }
        }
        current = nil
      default: break
      }
    case .endOfDocument:
      break reading
    }
  }
  return entries
}

/// `{name}` placeholders in template text (race-day guidance), filled in from the runner's paces.
enum TextPlaceholders {
  /// What pacing text may use when paces are known: the goal race pace (`4:40/km`), the predicted time, the split
  /// times (`5 km in 23:20 · 10 km in 46:40`), the time at halfway, the effort words and the distance's name.
  static let withPaces: Set<String> = ["racePace", "raceTime", "splits", "halfTime", "effort", "distance"]
  /// What text may use whatever the paces: the race effort words (`base.yaml` `efforts.race`) and the distance.
  static let always: Set<String> = ["effort", "distance"]

  /// The placeholder names in `text`, in order; nil when a brace is not closed or a name is empty or nested.
  static func names(in text: String) -> [String]? {
    var names: [String] = []
    var current: String?
    for character in text {
      switch character {
      case "{":
        guard current == nil else { return nil }
        current = ""
      case "}":
        guard let name = current, !name.isEmpty else { return nil }
        names.append(name)
        current = nil
      default:
        current?.append(character)
      }
    }
    return current == nil ? names : nil
  }

  /// `text` with every `{name}` replaced by `values[name]` (left as it is when there is no value).
  static func fill(_ text: String, _ values: [String: String]) -> String {
    // ASCII text (every template's): read as bytes, where every byte is a character (a plan fills three texts).
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return fillASCII(text.utf8, values) }
    var out = ""
    var current: String?
    for character in text {
      switch character {
      case "{" where current == nil:
        current = ""
      case "}" where current != nil:
        let name = current ?? ""
        out += values[name] ?? "{\(name)}"
        current = nil
      default:
        if current != nil { current?.append(character) } else { out.append(character) }
      }
    }
    if let current { out += "{" + current }
    return out
  }

  /// ``fill(_:_:)`` for ASCII text, byte by byte: the same result as reading it character by character.
  private static func fillASCII(_ text: String.UTF8View, _ values: [String: String]) -> String {
    var out = ""
    var start = text.startIndex
    var open: String.Index?
    var index = text.startIndex
    while index < text.endIndex {
      let byte = text[index]
      if byte == UInt8(ascii: "{") && open == nil {
        out += Substring(text[start..<index])
        open = index
      } else if byte == UInt8(ascii: "}"), let brace = open {
        let name = String(Substring(text[text.index(after: brace)..<index]))
        out += values[name] ?? "{\(name)}"
        open = nil
        start = text.index(after: index)
      }
      index = text.index(after: index)
    }
    out += Substring(text[(open ?? start)..<text.endIndex])
    return out
  }
}

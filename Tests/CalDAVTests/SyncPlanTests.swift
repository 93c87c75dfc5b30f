import CalDAV
import Digest
import Foundation
import Testing

/// The multistatus reader on answers written the ways servers write them, and the sync's steps on each case.
@Suite struct SyncPlanTests {
  @Test func aMultistatusIsReadWhateverTheNamespacePrefixes() throws {
    // Prefixed (as Nextcloud/SabreDAV writes it), with a 404 propstat for the property a member lacks.
    let prefixed = """
      <?xml version="1.0"?>
      <d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav">
       <d:response><d:href>/remote.php/dav/calendars/ana/running/</d:href>
        <d:propstat><d:prop><d:resourcetype><d:collection/><cal:calendar/></d:resourcetype></d:prop>
         <d:status>HTTP/1.1 200 OK</d:status></d:propstat>
        <d:propstat><d:prop><d:getetag/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat>
       </d:response>
       <d:response><d:href>/remote.php/dav/calendars/ana/running/rm-1-r00-q1%40runningmate.ics</d:href>
        <d:propstat><d:prop><d:resourcetype/><d:getetag>&quot;abc&quot;</d:getetag></d:prop>
         <d:status>HTTP/1.1 200 OK</d:status></d:propstat>
       </d:response>
      </d:multistatus>
      """
    let entries = try parseMultistatus(Array(prefixed.utf8))
    #expect(
      entries == [
        DAVEntry(href: "/remote.php/dav/calendars/ana/running/", etag: nil, isCollection: true, isCalendar: true),
        DAVEntry(
          href: "/remote.php/dav/calendars/ana/running/rm-1-r00-q1%40runningmate.ics", etag: "\"abc\"",
          isCollection: false, isCalendar: false),
      ])
    // A default namespace and an absolute href (as some servers write it): the same entries.
    let plain = """
      <multistatus xmlns="DAV:"><response><href>https://dav.example.org/cal/x.ics</href><propstat><prop>
      <getetag>"1"</getetag><resourcetype/></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>
      """
    #expect(
      try parseMultistatus(Array(plain.utf8)) == [
        DAVEntry(href: "https://dav.example.org/cal/x.ics", etag: "\"1\"", isCollection: false, isCalendar: false)
      ])
    #expect(throws: (any Error).self) { try parseMultistatus(Array("<multistatus><response>".utf8)) }
  }

  func event(_ uid: String, _ text: String) -> OutgoingEvent {
    let body = Array(text.utf8)
    return OutgoingEvent(uid: uid, body: body, hash: SHA256.digest(body), label: uid)
  }

  func record(_ event: OutgoingEvent, etag: String, body: String? = nil) -> SyncedResource {
    let hash = body.map { SHA256.digest(Array($0.utf8)) } ?? event.hash
    return SyncedResource(uid: event.uid, href: "/c/\(event.name)", etag: etag, hash: hash, label: event.uid)
  }

  func entry(_ name: String, _ etag: String) -> DAVEntry {
    DAVEntry(href: "/c/\(name)", etag: etag, isCollection: false, isCalendar: false)
  }

  @Test func eachCaseGetsItsStep() {
    let same = event("same", "A")
    let changed = event("changed", "B2")
    let fresh = event("new", "C")
    let editedThere = event("edited", "D2")
    let deletedThere = event("gone", "E2")
    let foreign = event("foreign", "F")
    let dropped = event("dropped", "G")
    let droppedEdited = event("dropped-edited", "H")
    let droppedGone = event("dropped-gone", "I")
    let stored = [
      record(same, etag: "\"s\""), record(changed, etag: "\"c\"", body: "B1"),
      record(editedThere, etag: "\"e1\"", body: "D1"), record(deletedThere, etag: "\"g\"", body: "E1"),
      record(dropped, etag: "\"d\""), record(droppedEdited, etag: "\"x1\""), record(droppedGone, etag: "\"y\""),
    ]
    let server = [
      same.name: entry(same.name, "\"s2\""), changed.name: entry(changed.name, "\"c\""),
      editedThere.name: entry(editedThere.name, "\"e2\""), foreign.name: entry(foreign.name, "\"f\""),
      dropped.name: entry(dropped.name, "\"d\""), droppedEdited.name: entry(droppedEdited.name, "\"x2\""),
    ]
    let events = [same, changed, fresh, editedThere, deletedThere, foreign]
    let steps = planSync(events: events, stored: stored, server: server, hrefFor: { "/c/\($0)" }, force: false)
    #expect(steps.count == 9)
    #expect(steps.contains(.unchanged(uid: "same")))
    #expect(steps.contains(.update(changed, stored[1], precondition: .match("\"c\""))))
    #expect(steps.contains(.create(fresh, href: "/c/new.ics", precondition: .create)))
    #expect(steps.contains(.delete(stored[4], precondition: .match("\"d\""))))
    #expect(steps.contains(.forget(stored[6])))
    let conflicts = steps.compactMap { step -> String? in
      if case .conflict(let uid, _, _) = step { return uid } else { return nil }
    }
    #expect(Set(conflicts) == ["edited", "gone", "foreign", "dropped-edited"])

    // --force: the server's ETag is the precondition, a deleted event is put back.
    let forced = planSync(events: events, stored: stored, server: server, hrefFor: { "/c/\($0)" }, force: true)
    #expect(forced.contains(.update(editedThere, stored[2], precondition: .match("\"e2\""))))
    #expect(forced.contains(.create(deletedThere, href: "/c/gone.ics", precondition: .create)))
    #expect(forced.contains(.create(foreign, href: "/c/foreign.ics", precondition: .match("\"f\""))))
    #expect(forced.contains(.delete(stored[5], precondition: .match("\"x2\""))))
  }

  /// What an interrupted sync leaves: a create answered but not recorded, an update answered but recorded under
  /// the old ETag. Those are the candidates fetched; found identical, they are adopted, else still conflicts.
  @Test func aResourceIdenticalToWhatWouldBeSentIsAdopted() {
    let created = event("created", "A")
    let updated = event("updated", "B2")
    let edited = event("edited", "C2")
    let same = event("same", "D")
    let stored = [
      record(updated, etag: "\"u1\"", body: "B1"), record(edited, etag: "\"e1\"", body: "C1"),
      record(same, etag: "\"s1\""),
    ]
    let server = [
      created.name: entry(created.name, "\"c\""), updated.name: entry(updated.name, "\"u2\""),
      edited.name: entry(edited.name, "\"e2\""), same.name: entry(same.name, "\"s2\""),
    ]
    let events = [created, updated, edited, same]
    let candidates = adoptionCandidates(events: events, stored: stored, server: server)
    #expect(candidates.map(\.event.uid) == ["created", "updated", "edited"])
    let identical = [
      created.uid: entry(created.name, "\"c\""), updated.uid: entry(updated.name, "\"u3\""),
    ]
    let steps = planSync(
      events: events, stored: stored, server: server, identical: identical, hrefFor: { "/c/\($0)" }, force: false)
    #expect(steps.contains(.adopt(created, href: "/c/created.ics", etag: "\"c\"")))
    #expect(steps.contains(.adopt(updated, href: "/c/updated.ics", etag: "\"u3\"")))
    #expect(steps.contains(.unchanged(uid: "same")))
    #expect(steps.contains { if case .conflict("edited", _, _) = $0 { true } else { false } })
    #expect(steps.count == 4)
  }

  @Test func onlyHTTPSOrLoopbackURLsAreAccepted() throws {
    #expect(throws: CalDAVError.insecure(url: "http://cal.example.org/a/")) {
      try CalDAVAccount(url: "http://cal.example.org/a/", user: "u", password: "p")
    }
    #expect(throws: CalDAVError.self) { try CalDAVAccount(url: "ftp://cal.example.org/a/", user: "u", password: "p") }
    #expect(throws: CalDAVError.self) {
      try CalDAVAccount(url: "https://u:p@cal.example.org/a/", user: "u", password: "p")
    }
    let account = try CalDAVAccount(url: "https://cal.example.org/dav/ana/running", user: "u", password: "p")
    #expect(account.collectionKey == "https://cal.example.org/dav/ana/running/")
    #expect(account.href(forName: "rm-1-r00-q1@runningmate.ics") == "/dav/ana/running/rm-1-r00-q1@runningmate.ics")
    #expect(try CalDAVAccount(url: "http://[::1]:5232/a/b/", user: "u", password: "p").collectionKey.hasPrefix("http"))
  }
}

import Testing
@Test func stub() { #expect(1 == 1) }

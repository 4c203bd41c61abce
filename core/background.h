#pragma once

// Work the window waits for only to show a number or a mark later (token
// counts, the runtime's text, digests, snapshots, History's reads) runs on
// pool threads. Each such job starts with yieldToWindow(): on Linux its
// thread takes a nice value of 10, once, so on a busy machine the GUI thread
// (typing, painting, opening a large persona) wins a core over it, while an
// idle core still runs it at full speed. Elsewhere, and where the system
// refuses, the thread stays as it was. Never call it on the GUI thread.
namespace soul {

void yieldToWindow();

} // namespace soul

#pragma once

#include "editortext.h"

#include <QStringView>

class QTextDocument;

namespace soul {

// textChange() from the text `document` holds (its block breaks as '\n') to
// `text`, without copying the document's text: its blocks are compared from
// both ends, one at a time. A pane that follows a small change to a 2 MiB
// file then never holds a second copy of the whole text.
TextChange documentChange(const QTextDocument *document, QStringView text);

} // namespace soul

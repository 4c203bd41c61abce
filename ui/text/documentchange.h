#pragma once

#include "persona/editortext.h"

#include <QStringView>

class QPlainTextEdit;
class QTextDocument;

namespace soul {

// textChange() from the text `document` holds (its block breaks as '\n') to
// `text`, without copying the document's text: its blocks are compared from
// both ends, one at a time. A pane that follows a small change to a 2 MiB
// file then never holds a second copy of the whole text.
TextChange documentChange(const QTextDocument *document, QStringView text);

// Gives `editor` the text `text` as one undoable edit of the range that
// differs (documentChange()), keeping the undo history, the cursor and the
// scroll: Ctrl+Z gives the previous text back. False when nothing differed.
bool replaceAsOneEdit(QPlainTextEdit *editor, QStringView text);

} // namespace soul

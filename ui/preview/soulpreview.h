#pragma once

#include "compose/contract.h"
#include "persona/personamodel.h"

#include <QByteArray>
#include <QPlainTextEdit>
#include <QTimer>

#include <array>
#include <optional>

namespace soul {

class WrapLayout;

// The composed soul, read-only, exactly as the model composes it. It never
// reads files: it asks the model for section k when told that it changed,
// and replaces only the part of section k that differs (one cursor edit in
// one edit block, undo off, scroll kept). Apart from lines too long to lay
// out (see shown()), positions in the document map 1:1 to UTF-16 positions in
// the soul: characters QTextDocument would turn into
// block breaks (CR, U+FDD0, U+FDD1) are shown through same-length stand-ins
// (displayText()).
class SoulPreview : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit SoulPreview(const PersonaModel *model, QWidget *parent = nullptr);

    void setView(SoulView view);
    SoulView view() const { return m_view; }
    void setShowInvisibles(bool show);
    bool showInvisibles() const { return m_showInvisibles; }

    // Builds the whole text again (on open, and when the view or the
    // invisibles setting changes).
    void rebuild();
    // Applies section `slot` of the current view as a range edit.
    void updateSection(int slot);
    // While another runtime's text is shown instead, the soul's document is
    // emptied and not kept up to date (a large persona's holds some 14 MiB
    // of text and a block per line); it is built again when shown.
    void setSuspended(bool suspended);
    bool suspended() const { return m_suspended; }

    // The slot whose section holds document position `position`, or -1.
    int sectionAt(int position) const;
    // Where section `slot` starts in the document, -1 when it is absent.
    int sectionOffset(int slot) const;

    // `section` as the preview shows it: a line over 8 KiB is cut after
    // 2 KiB and followed by how many characters are left out, since laying
    // out a line of a million characters takes Qt minutes. Without such a
    // line, `section` itself.
    static std::optional<QByteArray> shown(std::optional<QByteArray> section);

    // A large document emptied by a width change waits to be built again
    // (see resizeEvent()).
    bool rebuildPending() const { return m_resizeRebuild.isActive(); }

    // For tests and the benchmark: how often each kind of update ran.
    int rebuildCount() const { return m_rebuilds; }
    int rangeEditCount() const { return m_rangeEdits; }

Q_SIGNALS:
    void paneRequested(int slot);
    // After every rebuild or range edit.
    void updated();

protected:
    void mouseDoubleClickEvent(QMouseEvent *event) override;
    void keyPressEvent(QKeyEvent *event) override;
    void contextMenuEvent(QContextMenuEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    int lengthOf(int slot) const;
    // Section header bands and, when shown, invisible marks on screen.
    void refreshMarks();

    const PersonaModel *m_model = nullptr;
    WrapLayout *m_layout = nullptr; // owned by the document
    // The join of the model's rule, as shown, and its UTF-16 length.
    QString m_join;
    int m_joinLength = 0;
    SoulView m_view = SoulView::Unsaved;
    bool m_showInvisibles = false;
    std::array<std::optional<QByteArray>, SlotCount> m_sections;
    std::array<int, SlotCount> m_length16{}; // UTF-16 length of each shown section
    QTimer m_resizeRebuild;
    int m_width = -1; // the viewport's width at the last resize
    bool m_suspended = false;
    bool m_stale = false; // suspended with changes not applied
    int m_rebuilds = 0;
    int m_rangeEdits = 0;
};

} // namespace soul

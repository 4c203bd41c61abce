#pragma once

#include "registry/runtimeprofile.h"
#include "runtime/keptrange.h"

#include <QList>
#include <QString>

namespace soul {

// What one pane shows of its file under a runtime other than toolnexus.
// Ranges are positions in the pane's text (no BOM, '\n' line breaks), mapped
// from openClawKept()'s ranges in the file's decoded text.
struct RuntimePaneView
{
    bool active = false; // a runtime profile other than toolnexus applies
    bool loaded = false; // the runtime reads this file at all
    bool whole = false;  // injected untouched
    // The middle the agent never reads (the whole text when the total ran out
    // before the file).
    KeptRange dropped;
    // Places the runtime marks (AGENTS.md lines restated in OpenClaw's policy
    // digest, text Hermes's scan blocks), why, and whether that is a problem.
    QList<KeptRange> digestLines;
    QString markNote;
    bool markWarns = false;
    QString note;         // why the file is not loaded, refused or cut
    qint64 used = -1;     // the file's length in the runtime's unit; -1 when absent
    qint64 budget = 0;    // its per-file budget
    qint64 totalUsed = 0; // all files' injected length
    qint64 totalBudget = 0;
    // Exact tokens of what the runtime injects of the file (its text under its
    // header) and of the whole section, in `encoding`; -1 while unknown (no
    // tokenizer yet, or the file is not injected).
    qint64 tokens = -1;
    qint64 totalTokens = -1;
    QString encoding;
    // The window's settings of the runtime that hints at what it would keep
    // (RuntimeRegistry::hintRuntime()), under any runtime: the pane's hint
    // follows them.
    RuntimeSettings hintSettings;

    // A run that changes nothing a pane shows leaves it alone (no repaint).
    bool operator==(const RuntimePaneView &o) const
    {
        return active == o.active && loaded == o.loaded && whole == o.whole && dropped == o.dropped
               && digestLines == o.digestLines && markNote == o.markNote && markWarns == o.markWarns
               && note == o.note && used == o.used && budget == o.budget && totalUsed == o.totalUsed
               && totalBudget == o.totalBudget && tokens == o.tokens && totalTokens == o.totalTokens
               && encoding == o.encoding && hintSettings == o.hintSettings;
    }
    bool operator!=(const RuntimePaneView &o) const { return !(*this == o); }
};

} // namespace soul

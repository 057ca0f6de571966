<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>QObject</name>
    <message numerus="yes">
        <source>%1 + %n more</source>
        <translation>
            <numerusform>%1 + %n more</numerusform>
            <numerusform>%1 + %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>TopicJob</name>
    <message numerus="yes">
        <source>%n message(s) could not be read: %1</source>
        <translation>
            <numerusform>%n message could not be read: %1</numerusform>
            <numerusform>%n messages could not be read: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::CloudPanel</name>
    <message numerus="yes">
        <source>%1 points in %n frame(s) · %2 · stamp %3</source>
        <translation>
            <numerusform>%1 points in %n frame · %2 · stamp %3</numerusform>
            <numerusform>%1 points in %n frames · %2 · stamp %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… and %n more</numerusform>
            <numerusform>… and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::DiagnosticsPanel</name>
    <message numerus="yes">
        <source>%n entries</source>
        <translation>
            <numerusform>%n entry</numerusform>
            <numerusform>%n entries</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::ExportWizard</name>
    <message numerus="yes">
        <source>%n file(s), %1, in %2 s.</source>
        <translation>
            <numerusform>%n file, %1, in %2 s.</numerusform>
            <numerusform>%n files, %1, in %2 s.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> and %n more</source>
        <translation>
            <numerusform> and %n more</numerusform>
            <numerusform> and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::LogPanel</name>
    <message numerus="yes">
        <source>%1 of %n line(s)</source>
        <translation>
            <numerusform>%1 of %n line</numerusform>
            <numerusform>%1 of %n lines</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MainWindow</name>
    <message numerus="yes">
        <source>%n file(s) could not be opened; the others are open.</source>
        <translation>
            <numerusform>%n file could not be opened; the others are open.</numerusform>
            <numerusform>%n files could not be opened; the others are open.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n file(s)</source>
        <translation>
            <numerusform>%n file</numerusform>
            <numerusform>%n files</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Opened with %n problem(s): %1</source>
        <translation>
            <numerusform>Opened with %n problem: %1</numerusform>
            <numerusform>Opened with %n problems: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n problem(s)</source>
        <translation>
            <numerusform>%n problem</numerusform>
            <numerusform>%n problems</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MapPanel</name>
    <message numerus="yes">
        <source>%n fix(es)</source>
        <translation>
            <numerusform>%n fix</numerusform>
            <numerusform>%n fixes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n without a position</source>
        <translation>
            <numerusform>%n without a position</numerusform>
            <numerusform>%n without a position</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n tile(s) not fetched: %1</source>
        <translation>
            <numerusform>%n tile not fetched: %1</numerusform>
            <numerusform>%n tiles not fetched: %1</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::MessageTreeModel</name>
    <message numerus="yes">
        <source>%n more item(s) not shown</source>
        <translation>
            <numerusform>%n more item not shown</numerusform>
            <numerusform>%n more items not shown</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n byte(s)</source>
        <translation>
            <numerusform>%n byte</numerusform>
            <numerusform>%n bytes</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation>
            <numerusform>%n item</numerusform>
            <numerusform>%n items</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::PlotPanel</name>
    <message numerus="yes">
        <source>%1: %n sample(s), min %2, max %3, mean %4, std %5, %6 Hz</source>
        <translation>
            <numerusform>%1: %n sample, min %2, max %3, mean %4, std %5, %6 Hz</numerusform>
            <numerusform>%1: %n samples, min %2, max %3, mean %4, std %5, %6 Hz</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: %n sample(s), RMS %2, max |Δ| %3, mean %4, correlation %5</source>
        <translation>
            <numerusform>%1: %n sample, RMS %2, max |Δ| %3, mean %4, correlation %5</numerusform>
            <numerusform>%1: %n samples, RMS %2, max |Δ| %3, mean %4, correlation %5</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::SaveRecordingDialog</name>
    <message numerus="yes">
        <source>Wrote %n message(s) on %1 topic(s) to %2 (%3).</source>
        <translation>
            <numerusform>Wrote %n message on %1 topic(s) to %2 (%3).</numerusform>
            <numerusform>Wrote %n messages on %1 topic(s) to %2 (%3).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Could not be read (%n):</source>
        <translation>
            <numerusform>Could not be read (%n):</numerusform>
            <numerusform>Could not be read (%n):</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>bagscope::widgets::SceneLayers</name>
    <message numerus="yes">
        <source>%n item(s) in frame %1 not drawn: no transform to %2</source>
        <translation>
            <numerusform>%n item in frame %1 not drawn: no transform to %2</numerusform>
            <numerusform>%n items in frame %1 not drawn: no transform to %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n mesh(es) drawn as boxes: mesh files are not read (%1)</source>
        <translation>
            <numerusform>%n mesh drawn as a box: mesh files are not read (%1)</numerusform>
            <numerusform>%n meshes drawn as boxes: mesh files are not read (%1)</numerusform>
        </translation>
    </message>
</context>
</TS>

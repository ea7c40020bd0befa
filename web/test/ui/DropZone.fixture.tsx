// DropZone in a page of its own for inBrowser.test.ts: one that takes files, one disabled, and one
// that takes folders too.
import { DropZone, type DroppedFolder } from "../../components/ui/DropZone";
import { mountFixture, record } from "./mountFixture";

const files = (list: File[]) => record(list.map((file) => file.name).join(" "));
const folder = (dropped: DroppedFolder) =>
  record(
    dropped.kind === "picker"
      ? `folder: ${dropped.files
          .map((file) => file.webkitRelativePath)
          .sort()
          .join(" ")}`
      : `entries: ${dropped.entries.map((entry) => entry.name).join(" ")}`,
  );

mountFixture(
  <>
    <section aria-label="Open">
      <DropZone accept=".html,.zip" hint="HTML or ZIP · up to 50 MB" onFiles={files}>
        {(dragging) => <span>{dragging ? "Drop to upload" : "Upload a file"}</span>}
      </DropZone>
    </section>
    <section aria-label="Folders">
      <DropZone accept=".html" hint="A file or a folder" onFiles={files} onFolder={folder}>
        {() => <span>Upload a file or a folder</span>}
      </DropZone>
    </section>
    <section aria-label="Closed">
      <DropZone accept=".html" hint="Nothing now" disabled onFiles={files}>
        {() => <span>Closed for now</span>}
      </DropZone>
    </section>
  </>,
);

// DropZone in a page of its own for inBrowser.test.ts: one that takes files, and one disabled.
import { DropZone } from "../../components/ui/DropZone";
import { mountFixture, record } from "./mountFixture";

const files = (list: File[]) => record(list.map((file) => file.name).join(" "));

mountFixture(
  <>
    <section aria-label="Open">
      <DropZone accept=".html,.zip" hint="HTML or ZIP · up to 50 MB" onFiles={files}>
        {(dragging) => <span>{dragging ? "Drop to upload" : "Upload a file"}</span>}
      </DropZone>
    </section>
    <section aria-label="Closed">
      <DropZone accept=".html" hint="Nothing now" disabled onFiles={files}>
        {() => <span>Closed for now</span>}
      </DropZone>
    </section>
  </>,
);

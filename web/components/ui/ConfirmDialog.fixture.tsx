// ConfirmDialog in a page of its own for ConfirmDialog.test.ts: one dialog whose action waits
// for the test (window.settle), one that runs at once, one behind a typed name, and one inside
// another form.
import { useState } from "react";
import { mount } from "../../test/mount";
import { ConfirmDialog } from "./ConfirmDialog";

declare global {
  interface Window {
    /** Ends the waiting action: resolves it, or rejects it with `failure`. */
    settle: (failure?: string) => void;
    calls: string[];
  }
}

window.calls = [];
window.settle = () => undefined;

function waiting(): Promise<void> {
  window.calls.push("slow");
  return new Promise((resolve, reject) => {
    window.settle = (failure) => (failure ? reject(new Error(failure)) : resolve());
  });
}

function Slow() {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<button type="button">Delete slowly</button>}
      title="Delete the thing?"
      description="It goes for good."
      confirmLabel="Delete"
      pendingLabel="Deleting"
      destructive
      failureTitle="Failed to delete the thing"
      onConfirm={waiting}
    />
  );
}

function Quick() {
  const [open, setOpen] = useState(false);
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<button type="button">Ban quickly</button>}
      title="Ban them?"
      description="They are signed out."
      confirmLabel="Ban"
      pendingLabel="Banning"
      failureTitle="Failed to ban"
      failureDescription="Please try again later."
      onConfirm={() => void window.calls.push("quick")}
    />
  );
}

function Typed() {
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState("");
  return (
    <ConfirmDialog
      open={open}
      onOpenChange={setOpen}
      trigger={<button type="button">Delete by name</button>}
      title="Delete ada?"
      description="Type the name."
      confirmLabel="Delete ada"
      pendingLabel="Deleting"
      confirmDisabled={typed !== "ada"}
      failureTitle="Failed"
      onConfirm={() => void window.calls.push(`typed ${typed}`)}
    >
      <label>
        Name
        <input value={typed} onChange={(event) => setTyped(event.target.value)} />
      </label>
    </ConfirmDialog>
  );
}

function InsideAForm() {
  const [open, setOpen] = useState(false);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        window.calls.push("outer form submitted");
      }}
    >
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        trigger={<button type="button">Remove password</button>}
        title="Remove the password?"
        description="Anyone can see it."
        confirmLabel="Remove"
        pendingLabel="Removing"
        failureTitle="Failed"
        onConfirm={() => void window.calls.push("inner")}
      />
    </form>
  );
}

mount(
  <>
    <Slow />
    <Quick />
    <Typed />
    <InsideAForm />
  </>,
);

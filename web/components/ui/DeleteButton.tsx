import { Trash2 } from "lucide-react";
import { Button, type ButtonProps } from "./Button";

/**
 * The small outline button that opens a delete confirmation in a list item. `label` is what it
 * says ("Remove", "Delete"); `item` names the item for screen readers, since every row has one.
 */
export function DeleteButton({ label, item, ...props }: Omit<ButtonProps, "children"> & { label: string; item: string }) {
  return (
    <Button variant="outline" size="sm" className="text-destructive hover:text-destructive" {...props}>
      <Trash2 aria-hidden />
      {label}
      <span className="sr-only"> {item}</span>
    </Button>
  );
}

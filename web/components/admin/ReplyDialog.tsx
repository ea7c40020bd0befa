// The reply to a contact or support message: plain text, mailed to the address the message gave.
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { toast } from "sonner";
import type { z } from "zod";
import { AdminMessageReply, type AdminMessage } from "../../../common/support";
import { errorDescription, showFieldErrors } from "../../lib/api";
import { useReplyToMessage } from "../../lib/adminQueries";
import { DialogFormActions, FormDialog } from "../ui/Dialog";
import { FormField, describedBy } from "../ui/FormField";
import { Textarea } from "../ui/Textarea";

type ReplyInput = z.input<typeof AdminMessageReply>;

export function ReplyDialog({ message, onClose }: { message: AdminMessage | null; onClose: () => void }) {
  const reply = useReplyToMessage();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ReplyInput, unknown, AdminMessageReply>({ resolver: zodResolver(AdminMessageReply), defaultValues: { message: "" } });

  useEffect(() => {
    if (message) reset({ message: `Hi ${message.name.split(/\s+/)[0] ?? ""},\n\n` });
  }, [message, reset]);

  const onSubmit = handleSubmit(async (values) => {
    if (!message) return;
    try {
      await reply.mutateAsync({ id: message.id, message: values.message });
      toast.success("Reply sent", { description: `Mailed to ${message.email}.` });
      onClose();
    } catch (error) {
      showFieldErrors(error, (field) => (field === "message" ? field : undefined), setError);
      toast.error("Could not send the reply", { description: errorDescription(error) });
    }
  });

  const error = errors.message?.message;
  return (
    <FormDialog
      open={message !== null}
      onOpenChange={(open) => !open && onClose()}
      pending={reply.isPending}
      title={`Reply to ${message?.name ?? ""}`}
      description={message ? `Re: ${message.subject} — sent as plain text to ${message.email}. Their answer comes back to you by e-mail.` : ""}
      className="max-w-xl"
    >
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <FormField id="reply-message" label="Your reply" error={error}>
          <Textarea
            id="reply-message"
            rows={8}
            className="min-h-44 resize-y"
            autoFocus
            {...describedBy("reply-message", error)}
            {...register("message")}
          />
        </FormField>
        <DialogFormActions submitLabel="Send reply" pendingLabel="Sending" pending={reply.isPending} />
      </form>
    </FormDialog>
  );
}

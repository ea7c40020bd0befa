// The help page's support form: subject and message, sent from the signed-in account. Name and
// e-mail are the account's (shown, not editable): the server takes them from the session, so an
// answer reaches this account's address.
import { useState } from "react";
import { useBringIntoView } from "../../lib/useBringIntoView";
import { useForm } from "react-hook-form";
import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import type { z } from "zod";
import { AlertCircle, CheckCircle2, Send } from "lucide-react";
import { SupportRequest, type SupportResponse } from "../../../common/support";
import { CONTACT_FORM_TEXT } from "../../../common/texts";
import { api, showFieldErrors } from "../../lib/api";
import { Alert, AlertDescription, AlertTitle } from "../ui/Alert";
import { Button } from "../ui/Button";
import { FormField, describedBy } from "../ui/FormField";
import { Input } from "../ui/Input";
import { Spinner } from "../ui/Spinner";
import { Textarea } from "../ui/Textarea";

type SupportInput = z.input<typeof SupportRequest>;
const EMPTY: SupportInput = { subject: "", message: "" };

export const SUPPORT_SENT = "Message sent. We'll answer by e-mail.";

export function SupportForm({ name, email, answeredBy }: { name: string; email: string; answeredBy: string }) {
  const [sent, setSent] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<SupportInput, unknown, SupportRequest>({ resolver: zodResolver(SupportRequest), defaultValues: EMPTY });
  const send = useMutation({ mutationFn: (values: SupportRequest) => api<SupportResponse>("/api/support", { method: "POST", json: values }) });

  const outcome = useBringIntoView<HTMLDivElement>(sent || send.isError);

  const onSubmit = handleSubmit(async (values) => {
    setSent(false);
    try {
      await send.mutateAsync(values);
      reset(EMPTY);
      setSent(true);
    } catch (error) {
      showFieldErrors(error, (field) => (field === "subject" || field === "message" ? field : undefined), setError);
    }
  });

  return (
    <form noValidate onSubmit={onSubmit} className="grid gap-5">
      <div ref={outcome} tabIndex={-1} className="scroll-mt-24 outline-none empty:hidden">
        {sent && (
          <Alert role="alert" variant="success">
            <CheckCircle2 aria-hidden />
            <AlertTitle>{SUPPORT_SENT}</AlertTitle>
            <AlertDescription>
              {answeredBy} will reply to {email}.
            </AlertDescription>
          </Alert>
        )}
        {send.error && (
          <Alert role="alert" variant="destructive">
            <AlertCircle aria-hidden />
            <AlertTitle>Your message was not sent</AlertTitle>
            <AlertDescription>{send.error.message}</AlertDescription>
          </Alert>
        )}
      </div>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="support-name" label={CONTACT_FORM_TEXT.name} hint="From your account">
          <Input id="support-name" value={name} readOnly aria-describedby="support-name-hint" className="bg-muted/50 text-muted-foreground" />
        </FormField>
        <FormField id="support-email" label={CONTACT_FORM_TEXT.email} hint="Replies go here">
          <Input
            id="support-email"
            type="email"
            value={email}
            readOnly
            aria-describedby="support-email-hint"
            className="bg-muted/50 text-muted-foreground"
          />
        </FormField>
      </div>
      <FormField id="support-subject" label={CONTACT_FORM_TEXT.subject} error={errors.subject?.message}>
        <Input
          id="support-subject"
          placeholder="What do you need help with?"
          {...describedBy("support-subject", errors.subject?.message)}
          {...register("subject")}
        />
      </FormField>
      <FormField id="support-message" label={CONTACT_FORM_TEXT.message} error={errors.message?.message}>
        <Textarea
          id="support-message"
          rows={6}
          placeholder="The site or domain it is about, what you did, and what happened."
          className="min-h-36 resize-y"
          {...describedBy("support-message", errors.message?.message)}
          {...register("message")}
        />
      </FormField>
      <div className="flex justify-end">
        <Button type="submit" disabled={send.isPending} className="w-full sm:w-auto">
          {send.isPending ? <Spinner className="size-4 text-current" label="Sending" /> : <Send aria-hidden />}
          Send to support
        </Button>
      </div>
    </form>
  );
}

// Browser side of the RSVP page: posts the choice to endpoint 7 as JSON and shows the new counts,
// without reloading. Without JavaScript the same form posts to the page itself.
export function enhanceRsvpForm(): void {
  const form = document.querySelector<HTMLFormElement>('#rsvp');
  if (!form || form.dataset.closed === 'true') return;
  const notice = document.querySelector<HTMLElement>('#notice');
  const saved = document.documentElement.lang === 'ar' ? 'تم حفظ ردك.' : 'Your answer is saved.';
  // When the API cannot take the answer (no network; answers closed, the link no longer valid, too many requests),
  // the page answers instead, in its own language, as it does without JavaScript: the form is posted to it with the
  // choice in a field, since form.submit() sends no submitter. The API's English detail was shown before, and a
  // failed fetch posted the form without the choice, which the page then could not save.
  const answerOnThePage = (status: string) => {
    const field = document.createElement('input');
    field.type = 'hidden';
    field.name = 'status';
    field.value = status;
    form.append(field);
    form.submit();
  };
  form.addEventListener('submit', async (event) => {
    const submitter = (event as SubmitEvent).submitter as HTMLButtonElement | null;
    if (!submitter) return;
    event.preventDefault();
    const token = (form.elements.namedItem('token') as HTMLInputElement).value;
    const response = await fetch('/api/v0/rsvp/respond', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, status: submitter.value }),
    }).catch(() => null);
    if (!response || !response.ok) return answerOnThePage(submitter.value);
    const body = (await response.json().catch(() => ({}))) as { status?: string; summary?: Record<string, number> };
    for (const button of form.querySelectorAll<HTMLButtonElement>('button[name="status"]')) {
      button.setAttribute('aria-pressed', String(button.value === body.status));
    }
    for (const [key, value] of Object.entries(body.summary ?? {})) {
      const cell = document.querySelector<HTMLElement>(`[data-count="${key}"]`);
      if (cell) cell.textContent = String(value);
    }
    if (notice) notice.textContent = saved;
  });
}

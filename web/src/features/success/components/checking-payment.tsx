export function CheckingPayment() {
  return (
    <section className="card card--centered">
      <p role="status" className="loading">
        <span className="spinner" aria-hidden="true" />
        Checking your payment...
      </p>
    </section>
  );
}

/*
 * A stand-in of Razorpay Checkout (checkout.js) served by the local gateway emulator (test mode, no money moves):
 * new Razorpay(options).open() shows the test checkout in a modal; success calls options.handler with
 * { razorpay_payment_id, razorpay_order_id | razorpay_subscription_id, razorpay_signature } signed as Razorpay signs
 * them; a failed payment fires 'payment.failed' with Razorpay's error object; closing calls modal.ondismiss.
 */
(function () {
  'use strict';
  var base = new URL(document.currentScript ? document.currentScript.src : location.href).origin;

  function Razorpay(options) {
    if (!(this instanceof Razorpay)) return new Razorpay(options);
    if (!options || !options.key) throw new Error('Razorpay: key is required');
    if (!options.order_id && !options.subscription_id)
      throw new Error('Razorpay: order_id or subscription_id is required');
    this.options = options;
    this._handlers = {};
    this._overlay = null;
    this._onMessage = this._onMessage.bind(this);
  }

  Razorpay.prototype.on = function (event, handler) {
    (this._handlers[event] = this._handlers[event] || []).push(handler);
  };

  Razorpay.prototype.open = function () {
    if (this._overlay) return;
    var o = this.options;
    var query = new URLSearchParams({ key: o.key });
    if (o.order_id) query.set('order_id', o.order_id);
    if (o.subscription_id) query.set('subscription_id', o.subscription_id);
    if (o.name) query.set('name', o.name);
    if (o.description) query.set('description', o.description);
    if (o.prefill && o.prefill.email) query.set('email', o.prefill.email);
    var overlay = document.createElement('div');
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-label', 'Razorpay Checkout');
    overlay.style.cssText =
      'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.6);display:flex;align-items:center;justify-content:center';
    var frame = document.createElement('iframe');
    frame.title = 'Razorpay Checkout';
    frame.src = base + '/_checkout?' + query.toString();
    frame.style.cssText =
      'width:min(440px,96vw);height:min(640px,94vh);border:0;border-radius:10px;background:#fff';
    overlay.appendChild(frame);
    document.body.appendChild(overlay);
    this._overlay = overlay;
    this._frame = frame;
    window.addEventListener('message', this._onMessage);
  };

  Razorpay.prototype.close = function () {
    window.removeEventListener('message', this._onMessage);
    if (this._overlay) this._overlay.remove();
    this._overlay = null;
  };

  Razorpay.prototype._onMessage = function (event) {
    if (!this._frame || event.source !== this._frame.contentWindow || !event.data) return;
    var data = event.data;
    var o = this.options;
    if (data.type === 'razorpay:success') {
      this.close();
      if (typeof o.handler === 'function') o.handler(data.response);
    } else if (data.type === 'razorpay:failed') {
      (this._handlers['payment.failed'] || []).forEach(function (handler) {
        handler({ error: data.error });
      });
    } else if (data.type === 'razorpay:dismiss') {
      this.close();
      if (o.modal && typeof o.modal.ondismiss === 'function') o.modal.ondismiss();
    }
  };

  Razorpay.emulated = true;
  window.Razorpay = Razorpay;
})();

/*
 * A stand-in of the PayPal JS SDK (v5 Buttons) served by the local gateway emulator (test mode, no money moves),
 * loaded by @paypal/react-paypal-js through its `sdkBaseUrl` option. paypal.Buttons(options) renders a PayPal button;
 * a click calls createOrder (or createSubscription), opens PayPal's approval window (a popup, or a modal when popups
 * are blocked), then calls onApprove({ orderID, payerID } | { orderID, subscriptionID }), onCancel or onError.
 */
(function () {
  'use strict';
  var src = document.currentScript ? document.currentScript.src : location.href;
  var base = new URL(src).origin;
  var params = new URL(src).searchParams;
  var namespace =
    (document.currentScript && document.currentScript.getAttribute('data-namespace')) || 'paypal';

  function approvalWindow(url) {
    return new Promise(function (resolve) {
      var popup = window.open(url, 'paypal-emulator', 'width=480,height=680');
      var overlay = null;
      var frame = null;
      if (!popup) {
        overlay = document.createElement('div');
        overlay.setAttribute('role', 'dialog');
        overlay.setAttribute('aria-modal', 'true');
        overlay.setAttribute('aria-label', 'PayPal');
        overlay.style.cssText =
          'position:fixed;inset:0;z-index:2147483647;background:rgba(0,0,0,.6);display:flex;align-items:center;justify-content:center';
        frame = document.createElement('iframe');
        frame.title = 'PayPal';
        frame.src = url;
        frame.style.cssText =
          'width:min(440px,96vw);height:min(640px,94vh);border:0;border-radius:10px;background:#fff';
        overlay.appendChild(frame);
        document.body.appendChild(overlay);
      }
      var done = false;
      var timer = null;
      function finish(result) {
        if (done) return;
        done = true;
        window.removeEventListener('message', onMessage);
        if (timer) clearInterval(timer);
        if (overlay) overlay.remove();
        resolve(result);
      }
      function onMessage(event) {
        var from = popup || (frame && frame.contentWindow);
        if (event.source !== from || !event.data || typeof event.data.type !== 'string') return;
        if (event.data.type === 'paypal:approved') finish({ approved: event.data });
        if (event.data.type === 'paypal:cancelled') finish({ cancelled: true });
      }
      window.addEventListener('message', onMessage);
      if (popup) {
        timer = setInterval(function () {
          if (popup.closed)
            setTimeout(function () {
              finish({ cancelled: true });
            }, 300);
        }, 250);
      }
    });
  }

  function Buttons(options) {
    this.options = options || {};
    this._container = null;
    this._disabled = false;
  }
  Buttons.prototype.isEligible = function () {
    return true;
  };
  Buttons.prototype.render = function (container) {
    var self = this;
    var node = typeof container === 'string' ? document.querySelector(container) : container;
    if (!node) return Promise.reject(new Error('PayPal stand-in: container not found'));
    var style = self.options.style || {};
    var button = document.createElement('button');
    button.type = 'button';
    var subscription = typeof self.options.createSubscription === 'function';
    button.textContent = subscription
      ? 'Subscribe with PayPal'
      : style.label === 'pay'
        ? 'Pay with PayPal'
        : 'PayPal';
    button.setAttribute('aria-label', button.textContent + ' (test mode)');
    button.style.cssText =
      'width:100%;min-height:45px;border:0;border-radius:' +
      (style.shape === 'pill' ? '23px' : '4px') +
      ';background:#ffc439;color:#111;font:700 16px system-ui,sans-serif;cursor:pointer';
    var note = document.createElement('p');
    note.textContent = 'Test mode — local gateway emulator';
    note.style.cssText = 'margin:6px 0 0;font:12px system-ui,sans-serif;opacity:.75;text-align:center';
    button.addEventListener('click', function () {
      if (!self._disabled) self._start();
    });
    node.appendChild(button);
    node.appendChild(note);
    self._container = node;
    self._button = button;
    if (typeof self.options.onInit === 'function') {
      self.options.onInit(
        {},
        {
          enable: function () {
            self._disabled = false;
            button.disabled = false;
            return Promise.resolve();
          },
          disable: function () {
            self._disabled = true;
            button.disabled = true;
            return Promise.resolve();
          },
        },
      );
    }
    return Promise.resolve();
  };
  Buttons.prototype._start = function () {
    var self = this;
    var o = self.options;
    var subscription = typeof o.createSubscription === 'function';
    var actions = {
      order: {
        create: function () {
          return Promise.reject(new Error('Create the order on your server'));
        },
      },
      subscription: {
        create: function () {
          return Promise.reject(new Error('Create the subscription on your server'));
        },
      },
    };
    self._button.disabled = true;
    Promise.resolve()
      .then(function () {
        return subscription
          ? o.createSubscription({}, actions)
          : o.createOrder({ paymentSource: 'paypal' }, actions);
      })
      .then(function (id) {
        if (!id) throw new Error('Expected an order id to be passed');
        var url = subscription
          ? base + '/webapps/billing/subscriptions?subscription_id=' + encodeURIComponent(id)
          : base + '/checkoutnow?token=' + encodeURIComponent(id);
        return approvalWindow(url).then(function (result) {
          if (result.cancelled) {
            if (typeof o.onCancel === 'function')
              o.onCancel(subscription ? { subscriptionID: id } : { orderID: id });
            return;
          }
          var data = subscription
            ? {
                orderID: result.approved.orderID,
                subscriptionID: result.approved.subscriptionID,
                facilitatorAccessToken: 'emulator',
              }
            : {
                orderID: result.approved.orderID,
                payerID: result.approved.payerID,
                paymentSource: 'paypal',
                facilitatorAccessToken: 'emulator',
              };
          if (typeof o.onApprove === 'function') {
            return Promise.resolve(
              o.onApprove(data, {
                restart: function () {
                  self._start();
                },
              }),
            );
          }
        });
      })
      .catch(function (error) {
        if (typeof o.onError === 'function')
          o.onError(error instanceof Error ? error : new Error(String(error)));
      })
      .then(function () {
        if (self._button) self._button.disabled = self._disabled;
      });
  };
  Buttons.prototype.close = function () {
    if (this._container) this._container.innerHTML = '';
    this._container = null;
    return Promise.resolve();
  };
  Buttons.prototype.updateProps = function () {
    return Promise.resolve();
  };

  window[namespace] = {
    version: '5.0.0-emulator',
    emulated: true,
    clientId: params.get('client-id'),
    FUNDING: { PAYPAL: 'paypal', CARD: 'card', PAYLATER: 'paylater', VENMO: 'venmo' },
    Buttons: function (options) {
      return new Buttons(options);
    },
  };
})();

// The helpers oxc_transformer's legacy decorator transform calls (TypeScript's __decorate,
// __param and __metadata), as `amber:typescript/helpers/NAME`. A script: its completion
// value is the helper table.
(function () {
  'use strict';
  function decorate(decorators, target, key, desc) {
    var c = arguments.length;
    var r = c < 3 ? target : desc === null ? (desc = Object.getOwnPropertyDescriptor(target, key)) : desc;
    var d;
    if (typeof Reflect === 'object' && typeof Reflect.decorate === 'function') {
      r = Reflect.decorate(decorators, target, key, desc);
    } else {
      for (var i = decorators.length - 1; i >= 0; i--) {
        if ((d = decorators[i])) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
      }
    }
    if (c > 3 && r) Object.defineProperty(target, key, r);
    return r;
  }
  function decorateParam(paramIndex, decorator) {
    return function (target, key) { decorator(target, key, paramIndex); };
  }
  function decorateMetadata(k, v) {
    if (typeof Reflect === 'object' && typeof Reflect.metadata === 'function') return Reflect.metadata(k, v);
  }
  return { decorate: decorate, decorateParam: decorateParam, decorateMetadata: decorateMetadata };
})();

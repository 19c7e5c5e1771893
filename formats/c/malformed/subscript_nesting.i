 void ab
  [*(void(void __cons(void(void ab
   [*(void(void __cons  [*(long(void __constVAd  [*(long(void __constVAd(void(void __cons  [*](void( [*(void(void __cons  [*(void(void ab
   [*(void(void __cons  [*(void(void __constVAd(void __coid(void __cons  [*(void(void __consab
   [*(void(void __cons  [*(void(void ab
   [*(void(void __cons  [*(void(void __constVAd(void __coid(void __cons  [*(void(void __constVAd(void __cons  [*(void(void ab
  [* (void(void _oid(void __cons  [*(void(void ab
   [*(void(void __cons  [*(void(void __constVAd(void __ns  [*(void(void ab
  [* (void(void __cons  [*(void(void __constVAR_constVARB
ta#
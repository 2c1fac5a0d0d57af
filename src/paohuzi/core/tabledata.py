"""Precomputed 句 table for the default 胡息 table (generated; do not edit).

For every one-size hand key with counts ≤ 2 (3**10 keys, base-3 order) the most
valued 句 (一二三 / 二七十) without and with the 将 pair. Regenerate with
``python scripts/gen_tabledata.py``; ``tests/test_tabledata.py`` checks it.
"""

from __future__ import annotations

import base64
import zlib
from functools import lru_cache

_DATA = (
    "c-rmVVQ%9f5C%{ZUm!=w5qkgAwd#-7spFJ*z{c>Nw9=}J80A|)Ok$;%bW7>`&zEcZ{d=0y%;o3D-"
    "@|V6f4k3zeWVPRMbZC<Eo!C5TI<8sXRGhBDc)*DqZvLKmhy&$XN$zko~w7y!$G{=?B&|CrRXc&5^pLRufqXwIA|+cXe+?s;E"
    "wH%-"
    "IUCDX<_xYd^n_G4hP&Ev=smVpsmnW91?G}qGjG#@DP;4p^?L3z<2?`%|TnCttj4B)SfLxU#VwB_KTMmR<CD8S~wiwyoUqeaL"
    "`t0D{weyD*y)P(~1V;tyZ+Rn}dg-7|?aTou<|8b$$Ht`o7;-"
    "^u@5uTKBh#wjFQXqJa$GvP03#c<J?U7%*M{aC6XB9N1PsmwN4&YtPm}yyL8191h|I00{CBRD<zWD;mx4$*`0+EIeBzUV1$o#"
    "*Fv(o$dSl?exEU`C-"
    "_~zR%yw%c3ua6={lZM|@hbIo>)&_kLp`zi8Rj>(}9dn}fFEL~R9VE8s*LZ!2mQ74Jx^7l(s*0l>{cTj8<|OFpe=Fy3lKqZvL"
    "Kmhy&$XN$y3uZM$pyV=XNXG_sn>dT_{i<cHwuP=)(81J-"
    "L;W;ZlxGSc2CMdN7rz7_Aws_B2bn}1Q{;L;obI?|3D{weyD*$M}Usg0;wC|h4hkFPB0MzH3pxTVLPSI$F@2XuiGhRAA90rUR"
    "0Nfn36$iEz0Gx=&HWamb0RT$zO;8QSTdim`!zaU1-mvg&k$CC#a2PXQpH|f4A*jrv#eW^%C#2k9tN"
)


@lru_cache(maxsize=1)
def runs() -> bytes:
    return zlib.decompress(base64.b85decode(_DATA))

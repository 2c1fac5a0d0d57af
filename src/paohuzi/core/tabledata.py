"""Precomputed 句 table for the default 胡息 table (generated; do not edit).

For every one-size hand key the evaluator meets (counts ≤ 2, or one point held
three times: 3**10 + 10 × 3**9 keys, in ``evaluator._all_keys`` order) the most
valued 句 (一二三 / 二七十) without and with the 将 pair. Regenerate with
``python scripts/gen_tabledata.py``; ``tests/test_tabledata.py`` checks it.
"""

from __future__ import annotations

import base64
import zlib
from functools import lru_cache

_DATA = (
    "c-rmVi*e&P5&%%h-T)YaLSP7+e^k3OyB>ceN)QQv4dA`1tGk<F5ruZM*)4M9OIlL;{hxomrO*GJ-qRPCKY#rDu;uIDUB4c-"
    "rVN*xMV}vbvsU`P*7jlBXRGhBE4<YfJsQJ1ho!v34xjBvcxjovEsKNj4s$KnK3h7v(>>u$MZ>E&0E&aLBEnb!ih~|oj~z;8c"
    "!`j`k&8o`rZ}K;FjfEnfU&|@aY}frEn4P-"
    "1usD<4nc~;gy97MorAH$SW$eesC~9{bf?}GX%}81WUqHcA`}Pcw>SWbgR#O`f#P7S0GOPo6#>IrZPC#>2QNV}p|`J>)BEP-"
    "_4fUbx3Bx1i#|9kbFJ%3i^dLb-9-"
    "<?@Ffiv%?vN27KaJL3jjI?W5tPM1q^A_dAau41_<vw*^A;JyZ`_Pc?l|Dc&jaXG=_H$OL>PKKHHJ-GHP*{GrXUlY+t{Aoc{A"
    "#{&v{Lb)SDN-!A&#up&e8a>mn&-"
    "QlgXXzLFa@)s?ey?z}Y=p2j{9gP)WtbmRLA1i7tD!emgFN%Zk0)WoJSfSa5Tb@<~3~#kXkH+xMVJYvh!)H4ZUPdhr!aK~hT>"
    "EV4=uUlEbi42pA$xsUbiwex-(+}B#vi;Y-d{OEsVngPjB9ycczaxQ_Ybap_5wNwV}-E-"
    "#lctsK>T^xqQ@5<yK`9eApihSpKpSS8QwaJ9*yCvYA>1@UIs1>6NVQ6bPmRf6UPbwI^wkri^^UAfKq%DRKW07Tl8oQ?;Mu$4"
    "m*6dBjIJ#;xK1;J*}w6OHi4MR{3>!*Swuo-18}mwh}qK1DI#0N%jV~oRgh`>;-"
    "fV#tKjz005mspJPQ7Yth37STxxwOjaBKFjn+DRzwN!pq<11ouW8Q8D0R;IT$O7FA4wv@B%MEO&eZN8~|wIy7_-n-rw}O=xpJ"
    "g?<J^@zgqInuoR8_(lQlKP3(x_9jGjiztbdp16<AngcoElpmQ)*Xtt5PBaIaRpmQ)*bomqh>;M1$`0YJ!>F<p2d>pgB7R9Ya"
    "AO1{suC=*n2jMNeC=6O0CUmqO7Fo3EPK6hY6~>D2;T?Ibc)U{-2jSIY>#>Cw#X<J!9E=sU7iBP?Gu-;9L-"
    "}#o!RmOs=!3&D*Lr%G!4Vj(9d6RVzPM<|vocV3vhfmB!0;Ac6b3C0=&|+K(9?az(~42UJMviZV5iSQy4-"
    "~0zPFM;?q$yy@GKl56FWD&HLj*8F<j5sDGjst{NgZlc*nSwJJa+<BE<nv9E=qmjuoId=&|+KB-"
    "yJtC=Tcx!i^Q<)lS`9yqzl8C=SftzyijK;m3+n;XS@+R(LWFD*rQCEA14;VT$mg#|9J!orAH$zpa?-Vh-_iVV!1Cnr5%!(0_"
    "4&eu@JS|GMw(X+^xg`A~RuA}9`3ivs{vebjVMD?*3&_@cAE1hs7Bz)~nTw$5|e*w>}dzoh?mp7UOhi5A{7x1aInrMAzI*?Sr"
    "5Yc^_!*R|YhGRR)Qt<6|rtUz&?W313)>#^aK;s82_na7Gat~r0c7CL{%dEN?jOK&l{u4v%}#eoJ%a@KhOV}+*`Cx-Ww&f&r5"
    "HbpvzZ|8BlQXGUAJvPvPad2xhR&){GGq<1d=cTqk<Hh?-"
    "sf6&Tgf5B$0MK}Xz7}d3@1AF#rxl^X3yK2(?Ri=;NqCJFFGYUYf1Y*6a`6kotNZ%z0$d7R$jjLma&ejax|kh9B){Siu{coch"
    "g<(5nzlFqItQJDu>!?GanNJyvGv#}4xn?G(Du(Hz4S9Fb)He<Q{^k&-"
    "sLZf15{4_`WF!xD<&T+hIv{MymRmpl;WT`fF2vrIp`d`1VxJRu1MssIP<OuiUR=j?wZ#!UR#}K$oSOy?gcMFp*R2#o~IRU_T"
    "?q0BKvCp64WV)-"
    "QY4QyRW5fwPAuAP~UlYThKnv*7s)wnfnUz)uW8+lsxpV2w<!*R$#0!RsfVO%i1|GR<I?rc3#g|bku!GZP!=td3gJkeX<&W*~"
    "SV_D<&B$rn<g7t*FgQPyl1lffy^ab8yf)&7uUkJGkqC?h7!sKRK+2&k7>%OU-tDb)AQIzq0RYjs#$`dD+v7NyZ8n?Bt0(Ks^"
    "+w$a%O-"
    "lZUbzz<t?$*?swlegB$ZYo`~}BmLxI*e`wu0QcpA@5{UYG4J+Flj=<&=P%ky<nV@)`JGNbe&K14J4GHoT{LAZiab0q4@=$JW"
    "Hs<W=Iic158J3w%Yj9o95z{a<zc`)EOK8yC96-"
    "#!_4qPd!>48=q?ZQ7j<8r<h~p{4|hN0y1P>^K^63V6U?08uB8_hUU?Wi57%lt9W@W%C3^+FhS5%;&3OA+!`ICV<XZG1y1VFu"
    ">0>Rv)9~SKuxOl0d*nlmAUkCM9=7VSb)I%A4=pPB-Iu)t^*Fr17zK9Y!w6rc5-z-{Xm~+!0GFQovioxT@S-"
    ">jA6@_e0GQnNY@O=O*5@xeQ+R!jU6s$VBZQX-+3R!cQsH%99{#=@|EuXsW$&G{0YESV-<O}CEoyj+FA4wv6t_K{q-"
    "WDf&x;E0OxcU#AiO{vKF1Ci-"
    "r|eGki`K204U2p4eKbpsc3lT$zBwP;lm36ItOEgu>t_laB4U;oLy%xio;0Z&CK+&m;U*Swh}qKqh_!7Rzc@rtT0xfI2bDc0A"
    "MiNy??4VYo5QT@XnOIC=S9406GU_g=QO+FX5dtdr=&O7XWk)#tO|g0002M4!(<^qwuDp;hiUYQ5;4J@AcQOQ(b=?dz<mM!8>"
    "wQ++8$nFIwaZ{I+N-"
    "yTjXH(FWES*$e0#j1|TT6bEAk00000u)~tl+n>(_ufHBorvE=9Tpt~F?6)=DUG%|Wch|ag&0jQpc<U^BG={ILy=Z258Mrvi7"
    "T$jVd9G#j"
)


@lru_cache(maxsize=1)
def runs() -> bytes:
    return zlib.decompress(base64.b85decode(_DATA))

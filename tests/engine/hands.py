"""Hand-built test hands (worked out by hand from R9/R22/R25, not by the evaluator)."""

# 坎壹 6 + 坎贰 6 + 一二三 3 + 四五六 七八九 伍陆柒 0 + 玖拾 waiting for 捌 → 15 胡息.
A = "壹壹壹贰贰贰一二三四五六七八九伍陆柒玖拾"
# 坎十 3 + 坎四 3 + 壹贰叁 6 + 一二三 3 + 五六七 肆伍陆 0 + 玖拾 waiting for 捌 → 15.
# Disjoint from A where it matters: A and B may be held by two seats at once.
B = "十十十四四四壹贰叁一二三五六七肆伍陆玖拾"
# As A with 坎十 (3) instead of 坎贰 (6): 12 胡息 on 捌 — below 15, above 10.
A12 = "壹壹壹一二三四五六七八九伍陆柒十十十玖拾"
# 坎拾 + 将 捌捌 + 壹贰叁 6 + 一二三 3 + 四五六 七八九 肆伍陆: 拾 turned up by another
# makes 跑 9 → 18; self-drawn 提 12 → 21. 捌 makes 碰 3 (18) / 偎 6 (21).
P = "拾拾拾捌捌壹贰叁一二三四五六七八九肆伍陆"
# 坎二 3 + 七十 + 壹贰叁 6 + 肆伍陆 柒捌玖 三四五 + 坎拾 6: 二 from another keeps the 坎
# whole and makes 二七十 (3): 18 (破跑胡, R27); as 跑 the 七十 would be left over.
Q = "二二二七十壹贰叁肆伍陆柒捌玖三四五拾拾拾"

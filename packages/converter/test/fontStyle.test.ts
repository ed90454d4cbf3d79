import { assert, describe, it } from "@effect/vitest"
import { faceStyle, nameStyle } from "../src/internal/fontStyle.js"
import { Style } from "../src/internal/layout/model.js"

describe("a font's style from its name", () => {
  it("the typewriter faces of TeX's font families are code; their bold ones strong too", () => {
    for (
      const name of [
        "ABCDEF+CMTT10",
        "BZUJDV+t1xtt",
        "YBLMOJ+tcxtt",
        "USYJKU+t1xtt-Slant_167",
        "txtt",
        "LMMono10-Regular",
        "NMGJQF+SFTT1000",
        "AYKZLN+SFTT0900",
        "NMECAO+NimbusMonL-Regu",
        "NimbusMonL-Bold"
      ]
    ) {
      assert.strictEqual(nameStyle(name) & Style.code, Style.code, name)
    }
    assert.strictEqual(nameStyle("MPGAWB+t1xbtt"), Style.code | Style.strong)
    assert.strictEqual(nameStyle("TIOFWT+SFBX1200"), Style.strong)
    assert.strictEqual(nameStyle("UIEXKW+SFTI1000"), Style.emphasis)
  })

  it("Apple's Monaco is code: macOS's Quartz embeds it without the fixed-pitch flag", () => {
    assert.strictEqual(nameStyle("YNSZEH+Monaco"), Style.code)
    assert.strictEqual(faceStyle("YNSZEH+Monaco", 4, 400, 0), Style.code)
  })

  it("a proportional family flagged fixed-pitch is not code (Apple pstopdf's MacRoman Times); an unknown name so flagged is", () => {
    assert.strictEqual(faceStyle("Times-Roman", 35, 420, 0) & Style.code, 0)
    assert.strictEqual(faceStyle("ABCDEF+Helvetica", 33, 400, 0) & Style.code, 0)
    assert.strictEqual(faceStyle("ABCDEF+Letter", 33, 400, 0) & Style.code, Style.code)
  })

  it("text faces are not code, whatever letters their names share with one", () => {
    for (
      const name of [
        "XTTSDX+TeXGyreTermes-Regular",
        "LTEDIX+TeXGyreHeros-Bold",
        "Matt-Regular",
        "CMR10",
        "DejaVuSerif",
        "MVPKFB+SFRM1000",
        "ZVXLFO+SFSS1000",
        "ASZGGO+NimbusRomNo9L-Regu",
        "NimbusSanL-Regu"
      ]
    ) {
      assert.strictEqual(nameStyle(name) & Style.code, 0, name)
    }
  })

  it("a heavy stem makes a face strong only when its name does not say it is of normal weight", () => {
    // Ghostscript's dvips route writes StemV 148 for CMR12: PDFium's weight guess is then 732.
    for (const name of ["YDXBDV+CMR12", "TimesNewRomanPSMT", "NimbusRomNo9L-Regu", "Arial-Regular", "SFRM1200"]) {
      assert.strictEqual(faceStyle(name, 4, 732, 0) & Style.strong, 0, name)
    }
    for (const name of ["TT2Bt00", "ABCDEF+Verdana", "Arial", "LSNMMZ+CMBX12"]) {
      assert.strictEqual(faceStyle(name, 32, 732, 0) & Style.strong, Style.strong, name)
    }
    assert.strictEqual(faceStyle("TT2Bt00", 32, 400, 0) & Style.strong, 0)
    assert.strictEqual(faceStyle("CMR10", 32 | (1 << 18), 400, 0) & Style.strong, Style.strong, "forced bold")
  })
})
